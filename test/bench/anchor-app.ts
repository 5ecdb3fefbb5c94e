import express from 'express';
import pg from 'pg';

// The anchor the command benchmarks are measured against: the least an HTTP write on this stack can do —
// express 5 and one `INSERT … RETURNING` per request on a database of its own, no auth, no events.
// Run: DATABASE_URL=… PORT=… npx tsx test/bench/anchor-app.ts

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
await pool.query('create table if not exists anchor_farms (id bigserial primary key, name text not null)');

const app = express();
app.use(express.json());
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});
app.post('/farms/create', async (req, res) => {
  const { rows } = await pool.query<{ id: string; name: string }>(
    'insert into anchor_farms (name) values ($1) returning id, name',
    [String(req.body?.name ?? '')],
  );
  res.status(201).json(rows[0]);
});
const server = app.listen(Number(process.env.PORT ?? 3100), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  void pool.end();
});

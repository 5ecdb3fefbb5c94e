import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import autocannon from 'autocannon';
import pg from 'pg';
import { tokenFor } from '../src/support/api-client';
import { type RunningService, startProcess, startService } from '../src/support/service-process';

// Issue 12: POST /farms/create with read-your-writes against the all-in-one service started as the README
// does, and the anchor (anchor-app.ts: express 5 + one INSERT … RETURNING) in the same run, their timed
// rounds alternating, so both meet the same load on the machine. Also counts the database transactions
// each create costs: the xact_commit + xact_rollback delta of the service's own database per create.
// Run: npx tsx test/bench/farm-create-vs-anchor.ts   (BENCH_SECONDS 10, BENCH_ROUNDS 2, BENCH_CONNECTIONS 16)

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
/** A backend may hold its statistics up to 10 s before it reports them (PostgreSQL 15's idle interval):
 *  counters are read only after this much quiet. */
const STATS_SETTLE_MS = 11_000;

const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
await admin.connect();
const databaseName = (database: TestDatabase) => new URL(database.url).pathname.slice(1);
const transactionsOf = async (database: TestDatabase): Promise<number> => {
  await admin.query('select pg_stat_clear_snapshot()');
  const { rows } = await admin.query<{ xacts: string }>(
    'select xact_commit + xact_rollback as xacts from pg_stat_database where datname = $1',
    [databaseName(database)],
  );
  return Number(rows[0]?.xacts ?? 0);
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const serviceDatabase = await createTestDatabase('bench_farm_create');
const anchorDatabase = await createTestDatabase('bench_anchor');
const started: RunningService[] = [];
try {
  const service = await startService({
    DATABASE_URL: serviceDatabase.url,
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'warn',
  });
  started.push(service);
  const anchor = await startProcess(
    ['node_modules/.bin/tsx', 'test/bench/anchor-app.ts'],
    { DATABASE_URL: anchorDatabase.url },
    '/healthz',
  );
  started.push(anchor);

  const headers = {
    authorization: `Bearer ${await tokenFor({ sub: 'bench-user', givenName: 'Bench', familyName: 'Mark' })}`,
    'content-type': 'application/json',
  };
  const body = JSON.stringify({ name: 'Benchmark farm', farm_type: 'smallholder', country: 'KE' });
  const load = (baseUrl: string, duration: number) =>
    autocannon({ url: `${baseUrl}/farms/create`, connections: CONNECTIONS, duration, method: 'POST', headers, body });

  // Warm up both (the first create makes the farmer profile; the JIT settles), then learn what the service
  // does to its database while nobody calls it (subscriptions polling), to tell it apart from the creates.
  await load(anchor.baseUrl, 3);
  await load(service.baseUrl, 3);
  await pause(STATS_SETTLE_MS);
  const idleStart = await transactionsOf(serviceDatabase);
  await pause(STATS_SETTLE_MS);
  const idlePerSecond = ((await transactionsOf(serviceDatabase)) - idleStart) / (STATS_SETTLE_MS / 1000);

  const measure = async (database: TestDatabase, baseUrl: string) => {
    const before = await transactionsOf(database);
    const result = await load(baseUrl, SECONDS);
    await pause(STATS_SETTLE_MS);
    const transactions = (await transactionsOf(database)) - before;
    return { result, transactions, created: result['2xx'] };
  };

  console.log(
    `POST /farms/create, ${CONNECTIONS} connections, ${SECONDS} s per round; service idle: ${idlePerSecond.toFixed(1)} transactions/s`,
  );
  console.log(
    '| round | anchor req/s | anchor p99 ms | service req/s | service p50 ms | service p99 ms | ratio | non-2xx | transactions per create (net of idle) | anchor transactions per insert |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (let round = 1; round <= ROUNDS; round += 1) {
    const anchorRun = await measure(anchorDatabase, anchor.baseUrl);
    const serviceRun = await measure(serviceDatabase, service.baseUrl);
    const idle = idlePerSecond * (SECONDS + STATS_SETTLE_MS / 1000);
    const perCreate = serviceRun.transactions / serviceRun.created;
    const netPerCreate = (serviceRun.transactions - idle) / serviceRun.created;
    const ratio = serviceRun.result.requests.average / anchorRun.result.requests.average;
    console.log(
      `| ${round} | ${Math.round(anchorRun.result.requests.average)} | ${anchorRun.result.latency.p99} | ${Math.round(serviceRun.result.requests.average)} | ${serviceRun.result.latency.p50} | ${serviceRun.result.latency.p99} | ${ratio.toFixed(2)} | ${serviceRun.result.non2xx + anchorRun.result.non2xx} | ${perCreate.toFixed(2)} (${netPerCreate.toFixed(2)}) | ${(anchorRun.transactions / anchorRun.created).toFixed(2)} |`,
    );
  }
  console.log('Goals: ratio ≥ 0.5, service p99 < 30 ms, ≤ 3 transactions per create.');
} finally {
  for (const process of started.reverse()) await process.stop();
  await Promise.all([serviceDatabase.drop(), anchorDatabase.drop()]);
  await admin.end();
}

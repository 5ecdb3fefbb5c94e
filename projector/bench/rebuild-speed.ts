import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { createPostgresEventStore, migrateEventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { migrateReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import pg from 'pg';
import { readModelProjections } from '../src/read-model-projections';
import { rebuildProjections } from '../src/rebuild';
import { registryWorkload } from '../src/testing/registry-workload';
import { seededRandom } from '../src/testing/seeded-random';

// How fast `rebuildProjections` replays the registry read models from position 0. Fills a scratch
// database on the server of DATABASE_URL with registry activity, rebuilds it a few times, drops it.
// Usage: npx tsx projector/bench/rebuild-speed.ts [events, default 100000] [--profile]
// --profile writes a CPU profile of the rebuild rounds alone (not the filling) to rebuild-<time>.cpuprofile.

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGET_EVENTS = Number(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 100_000);
const PROFILE = process.argv.includes('--profile');
const WRITERS = 16;
const ROUNDS = 3;
// Issue 12: a rebuild of a million-policy portfolio's log must not take hours.
const GOAL_EVENTS_PER_SECOND = 50_000;

const admin = async (statement: string): Promise<void> => {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
};

const name = `cc_bench_projector_${randomBytes(4).toString('hex')}`;
const url = new URL(SERVER_URL);
url.pathname = `/${name}`;
await admin(`create database ${name}`);

const logger = createLogger({ level: 'warn' });
const pool = createPool(url.toString(), logger, { max: 20 });
const db = createKysely<ReadModels>(pool);
const eventStore = createPostgresEventStore({ pool });
try {
  await migrateEventStore(pool);
  await migrateReadModels(db);

  const filling = performance.now();
  const workloads = Array.from({ length: WRITERS }, (_, writer) =>
    registryWorkload(eventStore, `b${writer}`, seededRandom(writer)),
  );
  const appended = () => workloads.reduce((sum, workload) => sum + workload.appendedEvents(), 0);
  await Promise.all(
    workloads.map(async (workload) => {
      while (appended() < TARGET_EVENTS) await workload.step();
    }),
  );
  const { rows: mix } = await pool.query<{ event_type: string; count: string }>(
    'select event_type, count(*)::text as count from events group by event_type order by count(*) desc',
  );
  console.log(`appended ${appended()} events in ${((performance.now() - filling) / 1000).toFixed(1)} s`);
  console.log(`mix: ${mix.map((row) => `${row.event_type} ${row.count}`).join(', ')}`);
  // What the log costs on disk per event, indexes included: an input of docs/scaling.md.
  await pool.query('vacuum analyze events');
  const { rows: size } = await pool.query<{ bytes: string }>(`select pg_total_relation_size('events')::text as bytes`);
  console.log(`log on disk: ${Math.round(Number(size[0]!.bytes) / appended())} bytes per event, indexes included`);

  const rates: number[] = [];
  const profiler = new Session();
  if (PROFILE) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  for (let round = 1; round <= ROUNDS; round += 1) {
    const cpuBefore = process.cpuUsage();
    const result = await rebuildProjections({ eventStore, db, projections: readModelProjections });
    const cpu = process.cpuUsage(cpuBefore);
    rates.push(result.eventsPerSecond);
    // This process's CPU per event moves much less with the machine's load than the rate does.
    console.log(
      `round ${round}: ${result.events} events in ${(result.elapsedMs / 1000).toFixed(2)} s = ` +
        `${Math.round(result.eventsPerSecond).toLocaleString('en-US')} events/s; ` +
        `Node CPU ${((cpu.user + cpu.system) / result.events).toFixed(1)} µs per event; load average ${loadavg()[0]!.toFixed(1)}`,
    );
  }
  if (PROFILE) {
    const { profile } = await profiler.post('Profiler.stop');
    const file = `rebuild-${Date.now()}.cpuprofile`;
    await writeFile(file, JSON.stringify(profile));
    console.log(`CPU profile of the rounds: ${file}`);
  }
  const median = [...rates].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
  console.log(
    `median ${Math.round(median).toLocaleString('en-US')} events/s; goal ≥ ${GOAL_EVENTS_PER_SECOND.toLocaleString('en-US')}: ` +
      `${median >= GOAL_EVENTS_PER_SECOND ? 'met' : 'NOT met'}`,
  );
} finally {
  await eventStore.close();
  await db.destroy();
  await admin(`drop database if exists ${name} with (force)`);
}

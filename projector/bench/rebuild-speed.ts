import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { createPostgresEventStore, migrateEventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { migrateReadModels } from '@cropcover/read-store';
import { createLogger, createPool } from '@cropcover/runtime';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { readModelProjections } from '../src/read-model-projections';
import { rebuildProjections } from '../src/rebuild';
import { policyStory } from '../src/testing/policy-story';
import { registryWorkload } from '../src/testing/registry-workload';
import { seededRandom } from '../src/testing/seeded-random';

// How fast `rebuildProjections` replays every read model from position 0. Fills a scratch database on the
// server of DATABASE_URL with registry activity and policies (issued, evaluated, some breached), rebuilds
// it a few times, drops it. The anchor, in the same run (issue 36): the rows the rebuild made, loaded into
// the same tables with the same indexes by COPY FROM (server-side files), truncated first, one transaction.
// Usage: npx tsx projector/bench/rebuild-speed.ts [events, default 100000] [--profile]
// --profile writes a CPU profile of the rebuild rounds alone (not the filling) to rebuild-<time>.cpuprofile
// and prints the statements' time in PostgreSQL by kind (summed: the projections' statements overlap).

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGET_EVENTS = Number(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 100_000);
const PROFILE = process.argv.includes('--profile');
const WRITERS = 16;
const ROUNDS = 3;
// One policy story per this many registry events: the service's log is mostly policies' evaluations.
const REGISTRY_EVENTS_PER_POLICY = 4;
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
// Each statement's time from send to answer, by its first words, in the rounds (--profile only).
const statementMs = new Map<string, { count: number; ms: number }>();
let timingStatements = false;
const db = new Kysely<ReadModels>({
  dialect: new PostgresDialect({ pool }),
  log: (event) => {
    if (!timingStatements) return;
    const kind = event.query.sql.replace(/\s+/g, ' ').slice(0, 60);
    const sum = statementMs.get(kind) ?? { count: 0, ms: 0 };
    sum.count += 1;
    sum.ms += event.queryDurationMillis;
    statementMs.set(kind, sum);
  },
});
const eventStore = createPostgresEventStore({ pool });
try {
  await migrateEventStore(pool);
  await migrateReadModels(db);

  const filling = performance.now();
  const workloads = Array.from({ length: WRITERS }, (_, writer) =>
    registryWorkload(eventStore, `b${writer}`, seededRandom(writer)),
  );
  const appended = () => workloads.reduce((sum, workload) => sum + workload.appendedEvents(), 0);
  let policyEvents = 0;
  let policies = 0;
  // A policy issued, evaluated through a season of dekads; every other one breaches its drought trigger.
  const appendPolicy = async (writer: number): Promise<void> => {
    const index = policies++;
    const story = policyStory({
      policyId: `bench-${writer}-${index}`,
      organizationId: `org-${index % 3}`,
      perils: ['drought', 'flood'],
      termStart: '2026-04-01',
      termEnd: '2026-06-30',
      issuedAt: '2026-03-28T08:00:00.000Z',
    });
    for (let dekad = 0; dekad < 3; dekad += 1) {
      const day = `2026-0${4 + dekad}-10`;
      story.evaluate(
        { flood: [{ date: day, value: index % 2 === 0 ? 200 : 20, revision: 1 }] },
        `${day}T06:00:00.000Z`,
        `evaluation-${index}-${dekad}`,
      );
    }
    const events = story.takeNew();
    await eventStore.append(story.streamId, events, 'no_stream');
    policyEvents += events.length;
  };
  const total = () => appended() + policyEvents;
  await Promise.all(
    workloads.map(async (workload, writer) => {
      while (total() < TARGET_EVENTS) {
        if (policyEvents * REGISTRY_EVENTS_PER_POLICY < appended()) await appendPolicy(writer);
        else await workload.step();
      }
    }),
  );
  const { rows: mix } = await pool.query<{ event_type: string; count: string }>(
    'select event_type, count(*)::text as count from events group by event_type order by count(*) desc',
  );
  console.log(
    `appended ${total()} events (${policies} policies) in ${((performance.now() - filling) / 1000).toFixed(1)} s`,
  );
  console.log(`mix: ${mix.map((row) => `${row.event_type} ${row.count}`).join(', ')}`);
  // What the log costs on disk per event, indexes included: an input of docs/scaling.md.
  await pool.query('vacuum analyze events');
  const { rows: size } = await pool.query<{ bytes: string }>(`select pg_total_relation_size('events')::text as bytes`);
  console.log(`log on disk: ${Math.round(Number(size[0]!.bytes) / total())} bytes per event, indexes included`);

  const rates: number[] = [];
  const rebuildMs: number[] = [];
  const profiler = new Session();
  if (PROFILE) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
    timingStatements = true;
  }
  for (let round = 1; round <= ROUNDS; round += 1) {
    const cpuBefore = process.cpuUsage();
    const result = await rebuildProjections({ eventStore, db, projections: readModelProjections });
    const cpu = process.cpuUsage(cpuBefore);
    rates.push(result.eventsPerSecond);
    rebuildMs.push(result.elapsedMs);
    // This process's CPU per event moves much less with the machine's load than the rate does.
    console.log(
      `round ${round}: ${result.events} events in ${(result.elapsedMs / 1000).toFixed(2)} s = ` +
        `${Math.round(result.eventsPerSecond).toLocaleString('en-US')} events/s; ` +
        `Node CPU ${((cpu.user + cpu.system) / result.events).toFixed(1)} µs per event; load average ${loadavg()[0]!.toFixed(1)}`,
    );
  }
  if (PROFILE) {
    timingStatements = false;
    const { profile } = await profiler.post('Profiler.stop');
    for (const [kind, { count, ms }] of [...statementMs].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15))
      console.log(`  ${(ms / 1000).toFixed(2)} s in ${count} × ${kind}`);
    const file = `rebuild-${Date.now()}.cpuprofile`;
    await writeFile(file, JSON.stringify(profile));
    console.log(`CPU profile of the rounds: ${file}`);
  }
  const median = [...rates].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
  console.log(
    `median ${Math.round(median).toLocaleString('en-US')} events/s; goal ≥ ${GOAL_EVENTS_PER_SECOND.toLocaleString('en-US')}: ` +
      `${median >= GOAL_EVENTS_PER_SECOND ? 'met' : 'NOT met'}`,
  );

  // The COPY ceiling: the rebuilt rows dumped to server-side files (not timed), then truncate + COPY FROM
  // into the live tables with all their indexes, committed durably, timed, as often as the rebuild ran.
  const tables = [...new Set(readModelProjections.flatMap((projection) => projection.tables))];
  const fileOf = (table: string) => `/tmp/${name}-${table}.copy`;
  let rows = 0;
  for (const table of tables) {
    const copied = await pool.query(`copy public.${table} to '${fileOf(table)}'`);
    rows += copied.rowCount ?? 0;
  }
  const copyMs: number[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const client = await pool.connect();
      const started = performance.now();
      try {
        await client.query('begin');
        await client.query(`truncate ${tables.map((table) => `public.${table}`).join(', ')}`);
        for (const table of tables) await client.query(`copy public.${table} from '${fileOf(table)}'`);
        await client.query('commit');
      } finally {
        client.release();
      }
      copyMs.push(performance.now() - started);
      console.log(
        `COPY round ${round}: ${rows} rows into ${tables.length} tables in ${(copyMs.at(-1)! / 1000).toFixed(2)} s`,
      );
    }
  } finally {
    await pool.query(`copy (select 1) to program 'rm -f ${tables.map(fileOf).join(' ')}'`);
  }
  const medianCopyMs = [...copyMs].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
  // Where the rebuild's time goes, coarsely: the log read alone, batch after batch, as the rebuild reads it.
  const reading = performance.now();
  for (let batch = await eventStore.readAll('start', 5000); batch.length > 0; ) {
    batch = batch.length < 5000 ? [] : await eventStore.readAll(batch.at(-1)!.position, 5000);
  }
  console.log(`the log read alone, in batches of 5,000: ${((performance.now() - reading) / 1000).toFixed(2)} s`);
  const medianRebuildMs = [...rebuildMs].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
  console.log(
    `rebuild ${(medianRebuildMs / 1000).toFixed(2)} s against COPY ${(medianCopyMs / 1000).toFixed(2)} s (medians) for ${rows} rows: ` +
      `ratio ${(medianCopyMs / medianRebuildMs).toFixed(2)}× (goal ≥ 0.5×); load average ${loadavg()[0]!.toFixed(1)}`,
  );
} finally {
  await eventStore.close();
  await db.destroy();
  await admin(`drop database if exists ${name} with (force)`);
}

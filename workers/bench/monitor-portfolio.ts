import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import type { PolicyIssued } from '@cropcover/contracts';
import { createPostgresEventStore, migrateEventStore } from '@cropcover/eventstore';
import { policiesProjection, rebuildProjections } from '@cropcover/projector';
import { policyStory } from '@cropcover/projector/testing';
import { migrateReadModels, type ReadModels } from '@cropcover/read-store';
import { createKysely, createLogger, createPool, endPool, settableClock } from '@cropcover/runtime';
import { sql } from 'kysely';
import { timedMonitorPass } from './monitor-pass';

// The policy monitor at portfolio scale (issue 12): N policies due the same day, their fields on a few
// hundred cells of one grid source (many policies read one cell), one pass of the monitor with an
// injected clock. Prints policies/s, this process's and the database backends' CPU per policy, transactions
// per policy, peak RSS and heap. Further days (BENCH_DAYS) run a pass each on the following days with no
// new readings: what the monitor does when nothing happened. BENCH_HISTORY gives every policy that many
// recorded evaluations before the first pass, as a policy has on day 365: the first pass then loads each
// policy from its whole stream (no snapshot yet) and the next ones from the snapshot the first one wrote.
// Usage: npx tsx workers/bench/monitor-portfolio.ts   (BENCH_POLICIES, default 100000; BENCH_CELLS, default
// 1000; BENCH_DAYS, default 2; BENCH_HISTORY, default 0; BENCH_POOL, default 10 connections as in
// production; BENCH_CONCURRENCY, default the monitor's; BENCH_CPU_PROFILE, a file to write the last pass's
// CPU profile to; DATABASE_URL).
// Creates a scratch database cc_bench_monitor_* on the server and drops it.

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const POLICIES = Number(process.env.BENCH_POLICIES ?? 100_000);
const CELLS = Number(process.env.BENCH_CELLS ?? 1_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 2);
const POOL = Number(process.env.BENCH_POOL ?? 10);
const CONCURRENCY = process.env.BENCH_CONCURRENCY === undefined ? undefined : Number(process.env.BENCH_CONCURRENCY);
const HISTORY = Number(process.env.BENCH_HISTORY ?? 0);
const CPU_PROFILE = process.env.BENCH_CPU_PROFILE;
const GOAL_POLICIES_PER_SECOND = 500;

const SOURCE_ID = 'src-grid-bench';
const TERM = { start: '2026-03-01', end: '2026-08-31' };
const ISSUED_AT = '2026-02-27T08:00:00.000Z';
// Readings up to the day before the first pass, as a daily feed would have them.
const FIRST_PASS = '2026-06-01T00:05:00.000Z';
const READINGS_UNTIL = '2026-05-31';
const PERILS = ['drought', 'flood', 'storm'] as const;

const admin = async (statement: string): Promise<void> => {
  const server = createPool(SERVER_URL, createLogger({ level: 'warn' }), { max: 1 });
  try {
    await server.query(statement);
  } finally {
    await endPool(server);
  }
};

const name = `cc_bench_monitor_${randomBytes(4).toString('hex')}`;
const url = new URL(SERVER_URL);
url.pathname = `/${name}`;
await admin(`create database ${name}`);

const logger = createLogger({ level: 'warn' });
const pool = createPool(url.toString(), logger, { max: POOL });
const db = createKysely<ReadModels>(pool);
const eventStore = createPostgresEventStore({ pool });

const cellOf = (cell: number): string => {
  const lat = -4 + 0.05 * Math.floor(cell / 40);
  const lon = 34 + 0.05 * (cell % 40);
  return `${lat.toFixed(3)},${lon.toFixed(3)}`;
};

const seed = async (): Promise<void> => {
  await migrateEventStore(pool);
  await migrateReadModels(db);
  // Daily rain ~3 mm and wind ~6 m/s on every cell; every tenth cell had a 5-day flood in April.
  await sql`
    insert into index_readings (source_id, location, index, date, value, note, revision, recorded_at, recorded_by)
    select ${SOURCE_ID}, cells.location, series.index, day::date,
      case
        when series.index = 'wind_speed_ms' then 4 + (cells.n * 7 + extract(doy from day)::int) % 5
        when cells.n % 10 = 0 and day between '2026-04-10' and '2026-04-14' then 40
        else ((cells.n * 13 + extract(doy from day)::int) % 7)::double precision
      end,
      null, 1, now(), 'provider-bench'
    from unnest(${Array.from({ length: CELLS }, (_, n) => cellOf(n))}::text[]) with ordinality as cells(location, n)
    cross join (values ('rainfall_mm'), ('wind_speed_ms')) as series(index)
    cross join generate_series(${TERM.start}::date, ${READINGS_UNTIL}::date, interval '1 day') as day`.execute(db);
  const story = policyStory({
    policyId: 'template',
    organizationId: 'org-bench',
    perils: PERILS,
    termStart: TERM.start,
    termEnd: TERM.end,
    issuedAt: ISSUED_AT,
  });
  const template = story.events[0]!;
  const issued = template.data as PolicyIssued;
  // A recorded drought evaluation, repeated through March to May as the history of every policy.
  const rainfall = Array.from({ length: 30 }, (_, day) => ({
    date: `2026-03-${String(day + 1).padStart(2, '0')}`,
    value: 3,
    revision: 1,
  }));
  story.takeNew();
  story.evaluate({ drought: rainfall }, '2026-03-31T00:05:00.000Z');
  const evaluated = story.takeNew().find((event) => event.type === 'TriggerEvaluated')!;
  const historyOf = (policyId: string) =>
    Array.from({ length: HISTORY }, (_, at) => {
      const evaluatedAt = new Date(
        Date.parse(`${TERM.start}T00:05:00.000Z`) + Math.floor((at * 92) / HISTORY) * 86_400_000,
      );
      return {
        type: evaluated.type,
        data: { ...(evaluated.data as object), policy_id: policyId, evaluated_at: evaluatedAt.toISOString() },
        metadata: { ...evaluated.metadata, event_id: randomUUID() },
      };
    });
  let next = 0;
  const writer = async (): Promise<void> => {
    for (let i = next++; i < POLICIES; i = next++) {
      const policyId = `pol-${String(i).padStart(7, '0')}`;
      const location = cellOf(i % CELLS);
      const data: PolicyIssued = {
        ...issued,
        policy_id: policyId,
        farm_id: `farm-${i}`,
        data_sources: Object.fromEntries(
          issued.triggers.map((terms) => [
            terms.peril,
            { source_id: SOURCE_ID, kind: 'grid', index: terms.reading, location },
          ]),
        ),
      };
      await eventStore.append(
        `policy-${policyId}`,
        [
          { type: template.type, data, metadata: { ...template.metadata, event_id: randomUUID() } },
          ...historyOf(policyId),
        ],
        'no_stream',
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(POOL, 16) }, writer));
  await rebuildProjections({ eventStore, db, projections: [policiesProjection] });
};

const seedStarted = performance.now();
await seed();
console.log(
  `seeded ${POLICIES} policies (${HISTORY} recorded evaluations each) on ${CELLS} cells in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
);

let peakRss = 0;
let peakHeap = 0;
const sampleMemory = (): void => {
  const { rss, heapUsed } = process.memoryUsage();
  peakRss = Math.max(peakRss, rss);
  peakHeap = Math.max(peakHeap, heapUsed);
};
const sampler = setInterval(sampleMemory, 50);
const clock = settableClock(FIRST_PASS);
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

// The database's side, from outside: the CPU its backends serving this database used (from /proc, as the
// server runs on this machine; pg_stat_statements is not loaded) and the transactions it committed. The
// pool closes idle connections, so each backend is sampled through the pass: a backend's share is its last
// sample less its first (0 for one that started during the pass).
const backendCpuMs = new Map<number, { first: number; last: number }>();
const sampleBackends = async (): Promise<number> => {
  const { rows } = await pool.query<{ pid: number; commits: string }>(
    `select a.pid, d.xact_commit as commits from pg_stat_activity a join pg_stat_database d on d.datname = a.datname
     where a.datname = $1 and a.pid <> pg_backend_pid()`,
    [name],
  );
  for (const { pid } of rows) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Linux counts process CPU in ticks of 10 ms.
    const cpuMs = (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
    const known = backendCpuMs.get(pid);
    backendCpuMs.set(pid, { first: known?.first ?? 0, last: cpuMs });
  }
  return Number(rows[0]?.commits ?? 0);
};
const databaseCpuMs = (): number => [...backendCpuMs.values()].reduce((sum, { first, last }) => sum + last - first, 0);

try {
  for (let day = 0; day < DAYS; day += 1) {
    clock.set(new Date(Date.parse(FIRST_PASS) + day * 86_400_000));
    const events = async () => Number((await pool.query('select count(*) as n from events')).rows[0].n);
    const eventsBefore = await events();
    const load = loadavg()[0]!.toFixed(2);
    peakRss = 0;
    peakHeap = 0;
    backendCpuMs.clear();
    const commitsBefore = await sampleBackends();
    for (const backend of backendCpuMs.values()) backend.first = backend.last;
    const backendSampler = setInterval(() => void sampleBackends(), 500);
    const { tick, handled, seconds, cpuMs } = await timedMonitorPass({
      deps: { eventStore, db },
      clock,
      logger,
      concurrency: CONCURRENCY,
      cpuProfile: day === DAYS - 1 ? CPU_PROFILE : undefined,
    });
    clearInterval(backendSampler);
    const commitsAfter = await sampleBackends();
    sampleMemory();
    const rate = handled / seconds;
    console.log(
      JSON.stringify({
        day: clock.now().toISOString().slice(0, 10),
        ...tick,
        seconds: Number(seconds.toFixed(2)),
        policies_per_second: Math.round(rate),
        // This process's own CPU per policy: what the machine's load does not change much.
        node_cpu_ms_per_policy: Number((cpuMs / handled).toFixed(2)),
        database_cpu_ms_per_policy: Number((databaseCpuMs() / handled).toFixed(2)),
        transactions_per_policy: Number(((commitsAfter - commitsBefore) / handled).toFixed(2)),
        events_appended: (await events()) - eventsBefore,
        peak_rss: mib(peakRss),
        peak_heap: mib(peakHeap),
        load_average_at_start: load,
        load_average_at_end: loadavg()[0]!.toFixed(2),
      }),
    );
    if (day === 0)
      console.log(
        `goal ≥ ${GOAL_POLICIES_PER_SECOND} policies/s: ${rate >= GOAL_POLICIES_PER_SECOND ? 'met' : 'NOT met'}`,
      );
  }
  // What each unit costs on disk, indexes included (vacuumed first so dead rows do not count): inputs of
  // docs/scaling.md.
  await pool.query('vacuum analyze');
  const { rows: storage } = await pool.query<{ unit: string; bytes: string; count: string }>(
    `select 'event' as unit, pg_total_relation_size('events')::text as bytes, (select count(*) from events)::text as count
     union all select 'reading', pg_total_relation_size('index_readings')::text, (select count(*) from index_readings)::text
     union all select 'policy row', pg_total_relation_size('policies')::text, (select count(*) from policies)::text
     union all select 'evaluation row', pg_total_relation_size('policy_evaluations')::text,
       (select count(*) from policy_evaluations)::text
     union all select 'snapshot', pg_total_relation_size('policy_snapshots')::text, (select count(*) from policy_snapshots)::text`,
  );
  console.log(
    `on disk: ${storage.map(({ unit, bytes, count }) => `${Math.round(Number(bytes) / Math.max(1, Number(count)))} bytes per ${unit} (${count})`).join(', ')}`,
  );
} finally {
  clearInterval(sampler);
  await eventStore.close();
  await endPool(pool);
  await admin(`drop database ${name} with (force)`);
}

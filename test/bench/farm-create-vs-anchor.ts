import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import autocannon from 'autocannon';
import pg from 'pg';
import { tokenFor } from '../src/support/api-client';
import { type RunningService, startProcess, startService } from '../src/support/service-process';

// Issue 12: POST /farms/create with read-your-writes against the all-in-one service started as the README
// does, and the anchor (anchor-app.ts: express 5 + one INSERT … RETURNING) in the same run, their timed
// rounds alternating, so both meet the same load on the machine. Also counts the database transactions
// each create costs: the xact_commit + xact_rollback delta of the service's own database per create, and
// the CPU it costs the service's processes (process_cpu_seconds_total on /metrics, summed over them).
// BENCH_BEFORE_CHECKOUT=<another checkout, installed> measures that code's service in the same rounds too;
// BENCH_HTTP_WORKERS sets HTTP_WORKERS; BENCH_CPU_PROF_DIR=<dir> runs the service under `node --cpu-prof`
// (one .cpuprofile per process, written when it stops) instead of `npm start`.
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

const cpuSecondsOf = async (service: RunningService): Promise<number> => {
  const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
  return Number(/^process_cpu_seconds_total (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
};

const BEFORE_CHECKOUT = process.env.BENCH_BEFORE_CHECKOUT;
const serviceDatabase = await createTestDatabase('bench_farm_create');
const beforeDatabase = BEFORE_CHECKOUT ? await createTestDatabase('bench_farm_create_before') : undefined;
const anchorDatabase = await createTestDatabase('bench_anchor');
const started: RunningService[] = [];
try {
  const serviceEnv = {
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'warn',
    ...(process.env.BENCH_HTTP_WORKERS ? { HTTP_WORKERS: process.env.BENCH_HTTP_WORKERS } : {}),
  };
  const profileDirectory = process.env.BENCH_CPU_PROF_DIR;
  const service = profileDirectory
    ? await startProcess(
        ['node', '--cpu-prof', `--cpu-prof-dir=${profileDirectory}`, '--import', 'tsx', 'service/src/main.ts'],
        { ...serviceEnv, DATABASE_URL: serviceDatabase.url },
        '/readyz',
      )
    : await startService({ ...serviceEnv, DATABASE_URL: serviceDatabase.url });
  started.push(service);
  const before =
    BEFORE_CHECKOUT && beforeDatabase
      ? await startService({ ...serviceEnv, DATABASE_URL: beforeDatabase.url }, BEFORE_CHECKOUT)
      : undefined;
  if (before) started.push(before);
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
  const services = [
    { label: 'service', running: service, database: serviceDatabase },
    ...(before && beforeDatabase ? [{ label: 'before', running: before, database: beforeDatabase }] : []),
  ];
  await load(anchor.baseUrl, 3);
  for (const { running } of services) await load(running.baseUrl, 3);
  await pause(STATS_SETTLE_MS);
  const idleStarts = await Promise.all(services.map(({ database }) => transactionsOf(database)));
  await pause(STATS_SETTLE_MS);
  const idlePerSecond = await Promise.all(
    services.map(
      async ({ database }, index) => ((await transactionsOf(database)) - idleStarts[index]!) / (STATS_SETTLE_MS / 1000),
    ),
  );

  const measure = async (database: TestDatabase, baseUrl: string, running?: RunningService) => {
    const transactionsBefore = await transactionsOf(database);
    const cpuBefore = running ? await cpuSecondsOf(running) : Number.NaN;
    const result = await load(baseUrl, SECONDS);
    const cpuSeconds = running ? (await cpuSecondsOf(running)) - cpuBefore : Number.NaN;
    await pause(STATS_SETTLE_MS);
    const transactions = (await transactionsOf(database)) - transactionsBefore;
    return { result, transactions, created: result['2xx'], cpuSeconds };
  };

  console.log(`POST /farms/create, ${CONNECTIONS} connections, ${SECONDS} s per round`);
  console.log(
    '| round | what | req/s | p50 ms | p99 ms | ratio to anchor | non-2xx | transactions per create (net of idle) | CPU ms per create |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (let round = 1; round <= ROUNDS; round += 1) {
    const anchorRun = await measure(anchorDatabase, anchor.baseUrl);
    const anchorRate = anchorRun.result.requests.average;
    console.log(
      `| ${round} | anchor | ${Math.round(anchorRate)} | ${anchorRun.result.latency.p50} | ${anchorRun.result.latency.p99} | 1 | ${anchorRun.result.non2xx} | ${(anchorRun.transactions / anchorRun.created).toFixed(2)} | — |`,
    );
    for (const [index, { label, running, database }] of services.entries()) {
      const run = await measure(database, running.baseUrl, running);
      const idle = idlePerSecond[index]! * (SECONDS + STATS_SETTLE_MS / 1000);
      console.log(
        `| ${round} | ${label} | ${Math.round(run.result.requests.average)} | ${run.result.latency.p50} | ${run.result.latency.p99} | ${(run.result.requests.average / anchorRate).toFixed(2)} | ${run.result.non2xx} | ${(run.transactions / run.created).toFixed(2)} (${((run.transactions - idle) / run.created).toFixed(2)}) | ${((run.cpuSeconds * 1000) / run.created).toFixed(2)} |`,
      );
    }
  }
  console.log(
    `Idle transactions/s: ${services.map(({ label }, index) => `${label} ${idlePerSecond[index]!.toFixed(1)}`).join(', ')}`,
  );
  console.log('Goals: ratio ≥ 0.5, service p99 < 30 ms, ≤ 3 transactions per create.');
} finally {
  for (const process of started.reverse()) await process.stop();
  await Promise.all([serviceDatabase.drop(), anchorDatabase.drop(), beforeDatabase?.drop()]);
  await admin.end();
}

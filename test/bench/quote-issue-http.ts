import { loadavg } from 'node:os';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import autocannon from 'autocannon';
import { type RunningService, startService } from '../src/support/service-process';
import { benchCallers, postTo, seedThirtySeasons } from './sourced-cover';
import { DAY_MS, dateOf, PERILS, termStartMs } from './thirty-seasons';

// Issue 12's quote and issue rows against the all-in-one service started as the README does (`npm start`):
// - the quote of a four-peril cover priced by burning cost over 30 seasons of daily readings, rainfall
//   from a grid source and NDVI and wind from the insurer's field source, one request at a time (p50/p99):
//   the same cover again; another sum insured each time (the rates may be reused, the premium is worked
//   out); another term each time, priced from scratch;
// - the issue of the same four perils at the base rate (a field without readings) with read-your-writes,
//   at BENCH_CONNECTIONS (16, as the farm-create bench) connections: requests/s, and the CPU each costs
//   the service's processes (process_cpu_seconds_total on /metrics).
// BENCH_BEFORE_CHECKOUT=<another checkout, installed> runs that code's service beside this one, on its own
// database, and the timed runs alternate between them so the machine's load weighs on both alike.
// BENCH_SERVICE_NODE_OPTIONS is handed to the services' processes as NODE_OPTIONS (e.g. `--cpu-prof
// --cpu-prof-dir=/tmp/profiles` to profile them).
// Run: npx tsx test/bench/quote-issue-http.ts   (BENCH_SECONDS 10, BENCH_ROUNDS 2, BENCH_CONNECTIONS 16)

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const BEFORE_CHECKOUT = process.env.BENCH_BEFORE_CHECKOUT;

const { farmer, insurer, provider } = await benchCallers();

interface Subject {
  readonly label: string;
  readonly service: RunningService;
  readonly quote: autocannon.Options;
  readonly quoteNewSum: autocannon.Options;
  readonly quoteNewTerm: autocannon.Options;
  readonly issueBaseRate: autocannon.Options;
}

/** CPU seconds the service's processes have used (the first process sums its workers' on /metrics). */
const cpuSecondsOf = async (service: RunningService): Promise<number> => {
  const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
  return Number(/^process_cpu_seconds_total (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
};

const prepare = async (label: string, service: RunningService): Promise<Subject> => {
  const { farm_id } = await postTo(service, '/farms/create', farmer, { name: 'Benchmark shamba', country: 'KE' });
  await postTo(service, `/farms/${farm_id}/access`, farmer, { organization_id: 'org-bench', purposes: ['insurance'] });
  const field = { name: 'Plot', area_ha: 2.5, location: { lat: -1.29, lon: 36.82 }, crop_type: 'maize' };
  const { field_id } = await postTo(service, `/farms/${farm_id}/fields`, farmer, { ...field, field_id: 'north' });
  // No readings on this field: its covers are priced at the base rate, which isolates the cost of the
  // issue itself from the pricing.
  await postTo(service, `/farms/${farm_id}/fields`, farmer, { ...field, field_id: 'south' });
  const { cover, readings } = await seedThirtySeasons(service, provider, farm_id, field_id, true);
  const quoted = await postTo(service, '/insurance/quote', insurer, cover);
  for (const peril of PERILS) {
    if (quoted.breakdown[peril].method !== 'burning_cost' || quoted.breakdown[peril].seasons_used < 25)
      throw new Error(`${label}: ${peril} is not priced by burning cost over 30 seasons`);
  }
  const { data_sources: _named, ...fieldCover } = cover;
  const baseRate = { ...fieldCover, field_id: 'south' };
  const issued = await postTo(service, '/insurance/policies', insurer, baseRate);
  console.log(
    `${label}: ${readings} readings; quote rate ${quoted.rate}; base-rate issue ${issued.policy_id} at premium ${issued.premium}`,
  );
  const request = (path: string, body: unknown): autocannon.Options => ({
    url: `${service.baseUrl}${path}`,
    method: 'POST',
    headers: insurer,
    body: JSON.stringify(body),
  });
  let sumInsured = 100_000;
  let termShift = 0;
  const quoteEach = (body: () => unknown): autocannon.Options => ({
    url: service.baseUrl,
    connections: 1,
    requests: [
      {
        method: 'POST',
        path: '/insurance/quote',
        headers: insurer,
        setupRequest: (next) => ({ ...next, body: JSON.stringify(body()) }),
      },
    ],
  });
  return {
    label,
    service,
    quote: { ...request('/insurance/quote', cover), connections: 1 },
    // A cover not quoted before on every request: another sum insured (the rates may be reused), or
    // another term, priced from scratch: starting 0–299 days on, lasting 31–365 days, no pair twice
    // in 100,000 requests (a term seen again would be answered from the kept quotes).
    quoteNewSum: quoteEach(() => ({ ...cover, sum_insured: ++sumInsured })),
    quoteNewTerm: quoteEach(() => {
      termShift += 1;
      const start = termStartMs + DAY_MS * (termShift % 300);
      const days = 30 + (Math.floor(termShift / 300) % 335);
      return { ...cover, term_start: dateOf(start), term_end: dateOf(start + days * DAY_MS) };
    }),
    issueBaseRate: { ...request('/insurance/policies', baseRate), connections: CONNECTIONS },
  };
};

const env = {
  RATE_LIMIT_PER_MINUTE: '1000000',
  MONITOR_ENABLED: 'false',
  LOG_LEVEL: 'warn',
  ...(process.env.BENCH_SERVICE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVICE_NODE_OPTIONS } : {}),
};
const databases: TestDatabase[] = [];
const services: RunningService[] = [];
try {
  const checkouts = [...(BEFORE_CHECKOUT ? [['before', BEFORE_CHECKOUT] as const] : []), ['now', undefined] as const];
  const subjects: Subject[] = [];
  for (const [label, checkout] of checkouts) {
    const database = await createTestDatabase(`bench_quote_issue_${label}`);
    databases.push(database);
    const service = await startService({ ...env, DATABASE_URL: database.url }, checkout);
    services.push(service);
    subjects.push(await prepare(label, service));
  }
  const run = (options: autocannon.Options) => autocannon({ duration: SECONDS, timeout: 60, ...options });
  for (const subject of subjects) {
    await run({ ...subject.quote, duration: 3 });
    await run({ ...subject.issueBaseRate, duration: 3 });
  }
  const loadBefore = loadavg().map((load) => load.toFixed(2));
  const scenarios = [
    ['quote, the same cover again: p50 / p99 ms', (subject: Subject) => subject.quote],
    ['quote, another sum insured each time: p50 / p99 ms', (subject: Subject) => subject.quoteNewSum],
    ['quote, another term each time: p50 / p99 ms', (subject: Subject) => subject.quoteNewTerm],
    [`issue at the base rate, ${CONNECTIONS} connections: req/s (p99 ms)`, (subject: Subject) => subject.issueBaseRate],
  ] as const;
  const ISSUE = scenarios.length - 1;
  const figureOf = (scenario: number, result: autocannon.Result): number =>
    scenario === ISSUE ? result.requests.average : result.latency.p50;
  const rows: string[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const [at, [label, pick]] of scenarios.entries()) {
      const results: autocannon.Result[] = [];
      const cpuMsPerRequest: number[] = [];
      for (const subject of subjects) {
        const cpuBefore = await cpuSecondsOf(subject.service);
        const result = await run(pick(subject));
        cpuMsPerRequest.push((((await cpuSecondsOf(subject.service)) - cpuBefore) * 1000) / result.requests.total);
        results.push(result);
      }
      const cells = results.map((result, subject) =>
        at === ISSUE
          ? `${result.requests.average} (${result.latency.p99}), ${cpuMsPerRequest[subject]!.toFixed(2)} ms CPU each`
          : `${result.latency.p50} / ${result.latency.p99}`,
      );
      const ratio = results.length === 2 ? (figureOf(at, results[1]!) / figureOf(at, results[0]!)).toFixed(2) : '';
      const failures = results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0);
      rows.push(`| ${round} | ${label} | ${cells.join(' | ')} | ${ratio} | ${failures} |`);
    }
  }
  const loadAfter = loadavg().map((load) => load.toFixed(2));
  console.log(
    `Load average (1, 5, 15 min) before the timed runs: ${loadBefore.join(', ')}; after: ${loadAfter.join(', ')}`,
  );
  console.log(`${SECONDS} s per timed run. Goals: quote p99 < 15 ms, issue ≥ 800/s.`);
  console.log(
    `| round | scenario | ${subjects.map((subject) => subject.label).join(' | ')} | ratio now / before (p50 or req/s) | non-2xx + errors |`,
  );
  console.log(`|---|---|${subjects.map(() => '---|').join('')}---|---|`);
  for (const row of rows) console.log(row);
} finally {
  for (const service of services) await service.stop();
  for (const database of databases) await database.drop();
}

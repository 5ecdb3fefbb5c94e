import { loadavg } from 'node:os';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import autocannon from 'autocannon';
import { type RunningService, startService } from '../src/support/service-process';
import { benchCallers, postTo, seedThirtySeasons } from './sourced-cover';
import { PERILS } from './thirty-seasons';

// Issue 12's quote and issue rows against the all-in-one service started as the README does (`npm start`):
// - the quote of a four-peril cover priced by burning cost over 30 seasons of daily readings, rainfall
//   from a grid source and NDVI and wind from the insurer's field source, one request at a time (p50/p99);
// - the issue of the same four perils at the base rate (a field without readings) with read-your-writes,
//   at BENCH_CONNECTIONS (16, as the farm-create bench) connections (requests/s).
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
  readonly quote: autocannon.Options;
  readonly issueBaseRate: autocannon.Options;
}

const prepare = async (label: string, service: RunningService): Promise<Subject> => {
  const { farm_id } = await postTo(service, '/farms/create', farmer, { name: 'Benchmark shamba', country: 'KE' });
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
  return {
    label,
    quote: { ...request('/insurance/quote', cover), connections: 1 },
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
  const rows: string[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const quotes: autocannon.Result[] = [];
    for (const subject of subjects) quotes.push(await run(subject.quote));
    const issues: autocannon.Result[] = [];
    for (const subject of subjects) issues.push(await run(subject.issueBaseRate));
    subjects.forEach((subject, at) => {
      const [quote, issue] = [quotes[at]!, issues[at]!];
      rows.push(
        `| ${round} | ${subject.label} | ${quote.latency.p50} | ${quote.latency.p99} | ${issue.requests.average} | ${issue.latency.p99} | ${quote.non2xx + issue.non2xx + quote.errors + issue.errors} |`,
      );
    });
    if (subjects.length === 2) {
      rows.push(
        `| ${round} | now / before | ${(quotes[1]!.latency.p50 / quotes[0]!.latency.p50).toFixed(2)} | ${(quotes[1]!.latency.p99 / quotes[0]!.latency.p99).toFixed(2)} | ${(issues[1]!.requests.average / issues[0]!.requests.average).toFixed(2)} | ${(issues[1]!.latency.p99 / issues[0]!.latency.p99).toFixed(2)} | |`,
      );
    }
  }
  const loadAfter = loadavg().map((load) => load.toFixed(2));
  console.log(
    `Load average (1, 5, 15 min) before the timed runs: ${loadBefore.join(', ')}; after: ${loadAfter.join(', ')}`,
  );
  console.log(
    `${SECONDS} s per timed run; quote one request at a time, issue at ${CONNECTIONS} connections (goals: quote p99 < 15 ms, issue ≥ 800/s).`,
  );
  console.log('| round | service | quote p50 ms | quote p99 ms | issue req/s | issue p99 ms | non-2xx + errors |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  for (const service of services) await service.stop();
  for (const database of databases) await database.drop();
}

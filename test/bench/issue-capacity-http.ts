import { cpus, loadavg } from 'node:os';
import { createTestDatabase } from '@cropcover/runtime/testing';
import autocannon from 'autocannon';
import { startService } from '../src/support/service-process';
import { benchCallers, postTo } from './sourced-cover';

// Issue 19's goal: issue with capacity checks in force ≥ 0.8× issue in a programme without limits, same
// run, BENCH_CONNECTIONS (16) connections, over HTTP against the all-in-one service (`npm start`).
// - anchor: a programme created with no limit at all;
// - checked: a programme with every kind of rule in force on the issued policy — the programme aggregate,
//   a zone default, BENCH_ZONES (1,000) zone overrides among which the policy's own zone, and a (zone,
//   peril) rule for each of its perils — each far above what the run writes, so no issue is refused.
// Both issue the same two-peril base-rate cover (a field without readings) on one field; timed runs
// alternate between them so the machine's load weighs on both alike. Read-your-writes is on, as always.
// Run: npx tsx test/bench/issue-capacity-http.ts   (BENCH_SECONDS 10, BENCH_ROUNDS 3, BENCH_CONNECTIONS 16)

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ZONES = Number(process.env.BENCH_ZONES ?? 1_000);
const CURRENCY = 'KES';

const { farmer, insurer } = await benchCallers();
const database = await createTestDatabase('bench_issue_capacity');
const service = await startService({
  DATABASE_URL: database.url,
  RATE_LIMIT_PER_MINUTE: '1000000',
  MONITOR_ENABLED: 'false',
  LOG_LEVEL: 'warn',
});
try {
  const { farm_id } = await postTo(service, '/farms/create', farmer, { name: 'Benchmark shamba', country: 'KE' });
  await postTo(service, `/farms/${farm_id}/access`, farmer, { organization_id: 'org-bench', purposes: ['insurance'] });
  await postTo(service, `/farms/${farm_id}/fields`, farmer, {
    field_id: 'north',
    name: 'Plot',
    area_ha: 2.5,
    location: { lat: -1.29, lon: 36.82 },
    crop_type: 'maize',
  });
  const today = new Date().toISOString().slice(0, 10);
  const termEnd = new Date(Date.now() + 120 * 86_400_000).toISOString().slice(0, 10);
  const cover = (programmeId: string) => ({
    farm_id,
    field_id: 'north',
    perils: ['drought', 'flood'],
    sum_insured: 100_000,
    currency: CURRENCY,
    term_start: today,
    term_end: termEnd,
    programme_id: programmeId,
  });

  const unlimited = await postTo(service, '/insurance/programmes', insurer, { name: 'no limits', currency: CURRENCY });
  const first = await postTo(service, '/insurance/policies', insurer, cover(unlimited.programme_id));
  const { source_id, location } = first.triggers[0].data_source as { source_id: string; location: string };
  const zone = { source_id, location };
  const ROOM = 10_000_000_000;
  const checked = await postTo(service, '/insurance/programmes', insurer, {
    name: 'capacity in force',
    currency: CURRENCY,
    aggregate_limit: ROOM,
    capacity: {
      zone_default: ROOM,
      zones: [
        { ...zone, capacity: ROOM },
        ...Array.from({ length: ZONES - 1 }, (_, at) => ({
          source_id: zone.source_id,
          location: `cell-${at}`,
          capacity: ROOM,
        })),
      ],
      zone_perils: ['drought', 'flood'].map((peril) => ({ ...zone, peril, capacity: ROOM })),
    },
  });
  await postTo(service, '/insurance/policies', insurer, cover(checked.programme_id));

  const issueInto = (programmeId: string): autocannon.Options => ({
    url: `${service.baseUrl}/insurance/policies`,
    method: 'POST',
    headers: insurer,
    body: JSON.stringify(cover(programmeId)),
    connections: CONNECTIONS,
  });
  const subjects = [
    ['no limits', issueInto(unlimited.programme_id)],
    ['capacity in force', issueInto(checked.programme_id)],
  ] as const;
  const run = (options: autocannon.Options, duration = SECONDS) => autocannon({ duration, timeout: 60, ...options });
  for (const [, options] of subjects) await run(options, 3);

  const loadBefore = loadavg().map((load) => load.toFixed(2));
  const rows: string[] = [];
  const ratios: number[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const results: autocannon.Result[] = [];
    for (const [, options] of subjects) results.push(await run(options));
    const [anchor, checkedRun] = results as [autocannon.Result, autocannon.Result];
    const ratio = checkedRun.requests.average / anchor.requests.average;
    ratios.push(ratio);
    const failures = results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0);
    rows.push(
      `| ${round} | ${anchor.requests.average} (${anchor.latency.p99}) | ${checkedRun.requests.average} (${checkedRun.latency.p99}) | ${ratio.toFixed(2)} | ${failures} |`,
    );
  }
  const loadAfter = loadavg().map((load) => load.toFixed(2));
  console.log(`${cpus().length} CPUs (${cpus()[0]?.model}); ${SECONDS} s per timed run, ${CONNECTIONS} connections`);
  console.log(
    `Load average (1, 5, 15 min) before the timed runs: ${loadBefore.join(', ')}; after: ${loadAfter.join(', ')}`,
  );
  console.log('| round | no limits: req/s (p99 ms) | capacity in force: req/s (p99 ms) | ratio | non-2xx + errors |');
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  const mean = ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length;
  console.log(`Mean ratio ${mean.toFixed(2)} (goal ≥ 0.80)`);
} finally {
  await service.stop();
  await database.drop();
}

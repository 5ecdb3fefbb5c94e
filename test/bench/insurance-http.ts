import { loadavg } from 'node:os';
import { createTestDatabase } from '@cropcover/runtime/testing';
import autocannon from 'autocannon';
import { tokenFor } from '../src/support/api-client';
import { startService } from '../src/support/service-process';
import { PERILS, READINGS_PER_REQUEST, term, thirtySeasons } from './thirty-seasons';

// Quote (burning cost over 30 seasons), issue (with read-your-writes) and live evaluation of a
// four-peril policy, against the all-in-one service started as the README does. The field has 30 years
// of daily rainfall, NDVI and wind readings (~33,000), with droughts, floods, vegetation stress and
// storms in a few past seasons so every peril is priced by burning cost on non-zero severities.
// A four-peril cover over that field takes seconds to price, so its quote and issue run one request at
// a time; the same quote without vegetation stress, and an issue on a field without readings (base
// rate), run at full concurrency to show the rest of the pricing and the cost of the issue itself.
// Run: npx tsx test/bench/insurance-http.ts   (TEST_DATABASE_URL defaults to the local server)

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const database = await createTestDatabase('bench_insurance_http');
const service = await startService({
  DATABASE_URL: database.url,
  RATE_LIMIT_PER_MINUTE: '1000000',
  MONITOR_ENABLED: 'false',
  LOG_LEVEL: 'warn',
});
let peakRssBytes = 0;
const sampleMemory = async () => {
  const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
  const match = /^process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)/m.exec(text);
  if (match?.[1]) peakRssBytes = Math.max(peakRssBytes, Number(match[1]));
};
// While a request holds the event loop, the server may drop the sampler's idle keep-alive connection;
// such a sample is skipped, and counted so the figure's coverage is known.
let failedSamples = 0;
const sampler = setInterval(
  () =>
    void sampleMemory().catch(() => {
      failedSamples += 1;
    }),
  250,
);

const headersFor = async (caller: Parameters<typeof tokenFor>[0]) => ({
  authorization: `Bearer ${await tokenFor(caller)}`,
  'content-type': 'application/json',
});
const post = async (path: string, headers: Record<string, string>, body: unknown) => {
  const response = await fetch(`${service.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, any>;
};

try {
  const farmer = await headersFor({ sub: 'bench-farmer', givenName: 'Bench', familyName: 'Mark' });
  const insurer = await headersFor({ sub: 'bench-underwriter', org: 'org-bench', roles: ['insurer'] });
  // The insurer's own organization's data provider: a policy that names no source reads only its own
  // organization's field readings.
  const provider = await headersFor({ sub: 'bench-feed', org: 'org-bench', roles: ['data_provider'] });

  const { farm_id } = await post('/farms/create', farmer, { name: 'Benchmark shamba', country: 'KE' });
  await post(`/farms/${farm_id}/access`, farmer, { organization_id: 'org-bench', purposes: ['insurance'] });
  const fieldBody = { name: 'Plot', area_ha: 2.5, location: { lat: -1.29, lon: 36.82 }, crop_type: 'maize' };
  const { field_id } = await post(`/farms/${farm_id}/fields`, farmer, { ...fieldBody, field_id: 'north' });
  // A field without readings: its covers are priced at the base rate, which isolates the cost of the
  // issue itself (appends and the read-your-writes wait) from the pricing.
  await post(`/farms/${farm_id}/fields`, farmer, { ...fieldBody, field_id: 'south' });
  const readings = thirtySeasons().map((reading) => ({ farm_id, field_id, ...reading }));
  const seeding = performance.now();
  for (let at = 0; at < readings.length; at += READINGS_PER_REQUEST) {
    await post('/insurance/index-readings', provider, { readings: readings.slice(at, at + READINGS_PER_REQUEST) });
  }
  console.log(
    `Seeded ${readings.length} readings (${readings[0]?.date} to ${readings.at(-1)?.date}) in ${((performance.now() - seeding) / 1000).toFixed(1)} s.`,
  );

  const cover = { farm_id, field_id, perils: PERILS, sum_insured: 100_000, currency: 'KES', ...term };
  const quote = await post('/insurance/quote', insurer, cover);
  console.log(`Quote: rate ${quote.rate}, premium ${quote.premium}, breakdown ${JSON.stringify(quote.breakdown)}`);
  for (const peril of PERILS) {
    const pricing = quote.breakdown[peril] as { method: string; seasons_used: number } | undefined;
    if (pricing?.method !== 'burning_cost' || pricing.seasons_used < 10)
      throw new Error(`${peril} is not priced by burning cost over at least 10 seasons`);
  }

  const run = (options: autocannon.Options) =>
    autocannon({ connections: CONNECTIONS, duration: DURATION_SECONDS, timeout: 120, ...options });
  const postTo = (path: string, body: unknown): autocannon.Options => ({
    url: `${service.baseUrl}${path}`,
    method: 'POST',
    headers: insurer,
    body: JSON.stringify(body),
  });
  const quoteAll = postTo('/insurance/quote', cover);
  const issueBaseRate = postTo('/insurance/policies', { ...cover, field_id: 'south' });
  const policyIds: string[] = [];
  const issueAll: autocannon.Options = {
    url: service.baseUrl,
    requests: [
      {
        method: 'POST',
        path: '/insurance/policies',
        headers: insurer,
        body: JSON.stringify({ ...cover, crop_type: 'maize' }),
        onResponse: (status, body) => {
          if (status === 201) policyIds.push((JSON.parse(body) as { policy_id: string }).policy_id);
        },
      },
    ],
  };
  let evaluation = 0;
  const evaluate: autocannon.Options = {
    url: service.baseUrl,
    requests: [
      {
        method: 'POST',
        headers: insurer,
        body: '{}',
        setupRequest: (request) => ({
          ...request,
          path: `/insurance/policies/${policyIds[evaluation++ % policyIds.length]}/evaluate`,
        }),
      },
    ],
  };

  // Warm up: the JIT settles and the readings are in the buffer cache.
  await run({ ...quoteAll, duration: 3 });
  await run({ ...issueBaseRate, duration: 3 });
  const loadBefore = loadavg().map((load) => load.toFixed(2));

  const issues = await run(issueAll);
  const firstEvaluation = await post(`/insurance/policies/${policyIds[0]}/evaluate`, insurer, {});
  console.log(
    `Evaluation: ${firstEvaluation.triggers_evaluated} of ${firstEvaluation.triggers_total} perils evaluated, skipped ${JSON.stringify(firstEvaluation.skipped_perils ?? [])}, total_payout ${firstEvaluation.total_payout}`,
  );
  await run({ ...evaluate, duration: 3 });
  const evaluations = await run(evaluate);
  const quotes = await run(quoteAll);
  // Latency without queueing: one request at a time (the node process serves one request's CPU at once).
  const quotesAlone = await run({ ...quoteAll, connections: 1 });
  const evaluationsAlone = await run({ ...evaluate, connections: 1 });
  const issuesBaseRate = await run(issueBaseRate);
  await sampleMemory();
  const loadAfter = loadavg().map((load) => load.toFixed(2));

  const row = (label: string, result: autocannon.Result) =>
    `| ${label} | ${result.connections} | ${result.requests.total} | ${result.requests.average} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} | ${result.errors + result.timeouts} |`;
  console.log(`Load average (1, 5, 15 min) before the runs: ${loadBefore.join(', ')}; after: ${loadAfter.join(', ')}`);
  console.log(`${DURATION_SECONDS} s per timed run.`);
  console.log('| scenario | connections | requests | requests/s | p50 ms | p99 ms | non-2xx | errors |');
  console.log('|---|---|---|---|---|---|---|---|');
  console.log(row(`POST /insurance/policies/{id}/evaluate (live, over ${policyIds.length} policies)`, evaluations));
  console.log(row('POST /insurance/quote, 4 perils, burning cost over 30 seasons', quotes));
  console.log(row('POST /insurance/quote, the same, one request at a time', quotesAlone));
  console.log(row('POST /insurance/policies/{id}/evaluate, one request at a time', evaluationsAlone));
  console.log(row('POST /insurance/policies, 4 perils, burning cost over 30 seasons', issues));
  console.log(row('POST /insurance/policies, 4 perils, base rate (field without readings)', issuesBaseRate));
  console.log(
    `Peak RSS of the all-in-one process: ${(peakRssBytes / 1024 / 1024).toFixed(0)} MiB (${failedSamples} samples failed)`,
  );
} finally {
  clearInterval(sampler);
  await service.stop();
  await database.drop();
}

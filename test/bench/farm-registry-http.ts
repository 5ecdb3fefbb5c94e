import { createTestDatabase } from '@cropcover/runtime/testing';
import autocannon from 'autocannon';
import { tokenFor } from '../src/support/api-client';
import { startService } from '../src/support/service-process';

// POST /farms/create, and POST-then-GET of the same farm, against the all-in-one service started as
// the README does. Every create waits for the read models (read-your-writes) before it answers.
// Run: npx tsx test/bench/farm-registry-http.ts   (TEST_DATABASE_URL defaults to the local server)

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

const database = await createTestDatabase('bench_http');
const service = await startService({
  DATABASE_URL: database.url,
  RATE_LIMIT_PER_MINUTE: '1000000',
  LOG_LEVEL: 'warn',
});
let peakRssBytes = 0;
const sampleMemory = async () => {
  const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
  const match = /^process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)/m.exec(text);
  if (match?.[1]) peakRssBytes = Math.max(peakRssBytes, Number(match[1]));
};
const sampler = setInterval(() => void sampleMemory(), 250);

try {
  const headers = {
    authorization: `Bearer ${await tokenFor({ sub: 'bench-user', givenName: 'Bench', familyName: 'Mark' })}`,
    'content-type': 'application/json',
  };
  const body = JSON.stringify({
    name: 'Benchmark farm',
    farm_type: 'smallholder',
    country: 'KE',
    common_grown_crops: ['maize'],
  });
  // Warm up: the first create makes the farmer profile, and the JIT settles.
  await autocannon({
    url: `${service.baseUrl}/farms/create`,
    connections: 4,
    duration: 3,
    method: 'POST',
    headers,
    body,
  });

  const creates = await autocannon({
    url: `${service.baseUrl}/farms/create`,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    method: 'POST',
    headers,
    body,
  });
  const createThenRead = await autocannon({
    url: service.baseUrl,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/farms/create',
        headers,
        body,
        onResponse: (_status, responseBody, context) => {
          (context as { farmId?: string }).farmId = (JSON.parse(responseBody) as { farm_id: string }).farm_id;
        },
      },
      {
        method: 'GET',
        headers,
        setupRequest: (request, context) => ({
          ...request,
          path: `/farms/${(context as { farmId?: string }).farmId}`,
        }),
      },
    ],
  });
  await sampleMemory();

  const row = (label: string, result: autocannon.Result, requestsPerIteration: number) =>
    `| ${label} | ${Math.round(result.requests.average / requestsPerIteration)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} | ${result.errors} |`;
  console.log(`Connections: ${CONNECTIONS}, ${DURATION_SECONDS} s per run.`);
  console.log('| scenario | iterations/s | p50 ms | p99 ms | non-2xx | errors |');
  console.log('|---|---|---|---|---|---|');
  console.log(row('POST /farms/create (with read-your-writes wait)', creates, 1));
  console.log(row('POST /farms/create then GET /farms/{id} (latency per request)', createThenRead, 2));
  console.log(`Peak RSS of the all-in-one process: ${(peakRssBytes / 1024 / 1024).toFixed(0)} MiB`);
} finally {
  clearInterval(sampler);
  await service.stop();
  await database.drop();
}

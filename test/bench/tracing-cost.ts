import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase } from '@cropcover/runtime/testing';
import autocannon from 'autocannon';
import { tokenFor } from '../src/support/api-client';
import { startService } from '../src/support/service-process';

// What tracing costs a hot route: `POST /farms/create` against the all-in-one service, tracing off (no
// OTEL_* variable) and on (every span exported over OTLP/HTTP to a local sink that answers 200), in
// alternating rounds. Besides throughput and latency, which follow the machine's load, it reports the
// service process's CPU time per create (`process_cpu_seconds_total` on /metrics), which does much less.
// Run: npx tsx test/bench/tracing-cost.ts   (BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONNECTIONS)

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);

let exportedBytes = 0;
const sink = createServer((req, res) => {
  req.on('data', (chunk: Buffer) => {
    exportedBytes += chunk.length;
  });
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;

const cpuSeconds = async (baseUrl: string): Promise<number> => {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return Number(/^process_cpu_seconds_total (\S+)/m.exec(text)?.[1]);
};

const measure = async (tracing: boolean) => {
  const database = await createTestDatabase('bench_tracing');
  const service = await startService({
    DATABASE_URL: database.url,
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'warn',
    MONITOR_ENABLED: 'false',
    ...(tracing ? { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl } : {}),
  });
  try {
    const options = {
      url: `${service.baseUrl}/farms/create`,
      method: 'POST' as const,
      headers: {
        authorization: `Bearer ${await tokenFor({ sub: 'bench-user', givenName: 'Bench', familyName: 'Mark' })}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'Benchmark farm', farm_type: 'smallholder', country: 'KE' }),
    };
    await autocannon({ ...options, connections: 4, duration: 3 });
    const cpuBefore = await cpuSeconds(service.baseUrl);
    const result = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION_SECONDS });
    const cpuPerCreateMs = (((await cpuSeconds(service.baseUrl)) - cpuBefore) * 1000) / result.requests.total;
    return { result, cpuPerCreateMs };
  } finally {
    await service.stop();
    await database.drop();
  }
};

console.log(`Connections: ${CONNECTIONS}, ${DURATION_SECONDS} s per round.`);
console.log('| round | tracing | creates/s | p50 ms | p99 ms | non-2xx | CPU ms per create |');
console.log('|---|---|---|---|---|---|---|');
for (let round = 1; round <= ROUNDS; round += 1) {
  for (const tracing of [false, true]) {
    const { result, cpuPerCreateMs } = await measure(tracing);
    console.log(
      `| ${round} | ${tracing ? 'on' : 'off'} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} | ${cpuPerCreateMs.toFixed(2)} |`,
    );
  }
}
console.log(`OTLP bytes exported: ${exportedBytes}`);
sink.close();

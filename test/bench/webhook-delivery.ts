import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { createPostgresEventStore } from '@cropcover/eventstore';
import { policyStory } from '@cropcover/projector/testing';
import { createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase } from '@cropcover/runtime/testing';
import { apiClient, type Caller } from '../src/support/api-client';
import { grantInsurance } from '../src/support/farm-access';
import { repositoryRoot, startService } from '../src/support/service-process';

// trigger.breached webhooks through Kafka: the all-in-one service with KAFKA_BROKERS (publisher → topic
// cropcover.trigger-breaches.v1 → dispatcher's consumer group → HTTP), a receiver on 127.0.0.1 that
// answers 200 at once and notes each arrival.
// 1. Latency: 200 breaches, one evaluation every 100 ms over HTTP; from the evaluate response to arrival.
// 2. Throughput: 1,000 breached policies appended straight to the event store in one go (seeding, not
//    HTTP: 4,000 requests would measure the API instead), timed from the first arrival to the last. The
//    deliveries cannot arrive faster than the breaches are appended (about 1–2 s here), so:
// 3. Backlog: another 1,000 appended while the service is stopped, then the service started: from its
//    first arrival to the last, what the whole path sustains when every breach is there at once.
// 4. Anchor (issue 36): the same receiver fed by a plain sender on its own thread — fetch (undici), as many bodies of a real
//    delivery's size, at most WEBHOOK_SENDS_PER_ENDPOINT in flight as the dispatcher sends to one URL —
//    from its first arrival to the last; the ratio backlog ÷ plain is the dispatcher's whole path against
//    bare HTTP on the same machine at the same time.
// Run: scripts/kafka-broker start && npx tsx test/bench/webhook-delivery.ts (BENCH_LATENCY_BREACHES=0 skips
// part 1 for a short run of the throughput alone).

console.log(
  `load average at start: ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const LATENCY_BREACHES = Number(process.env.BENCH_LATENCY_BREACHES ?? 200);
const LATENCY_SPACING_MS = 100;
const BURST_BREACHES = Number(process.env.BENCH_BURST_BREACHES ?? 1_000);
const DAY_MS = 86_400_000;
// The dispatcher's bound on requests in flight to one URL, given to the service and to the plain sender.
const SENDS_PER_ENDPOINT = Number(process.env.WEBHOOK_SENDS_PER_ENDPOINT ?? 8);

const dateOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

const arrivals = new Map<string, number>();
let deliveredBody = '';
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const at = performance.now();
    const body = Buffer.concat(chunks).toString('utf8');
    const { data } = JSON.parse(body) as { data: { policy_id: string } };
    deliveredBody ||= body;
    if (!arrivals.has(data.policy_id)) arrivals.set(data.policy_id, at);
    res.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const brokers = process.env.KAFKA_BROKERS ?? '127.0.0.1:9092';
const database = await createTestDatabase('bench_webhook_delivery');
const serviceEnv = {
  DATABASE_URL: database.url,
  KAFKA_BROKERS: brokers,
  WEBHOOK_ALLOW_INSECURE: 'true',
  MONITOR_ENABLED: 'false',
  RATE_LIMIT_PER_MINUTE: '1000000',
  WEBHOOK_SENDS_PER_ENDPOINT: String(SENDS_PER_ENDPOINT),
};
let service = await startService(serviceEnv);
const api = apiClient(service.baseUrl);

let peakServiceRss = 0;
let peakBrokerRss = 0;
// scripts/kafka-broker keeps the default port's broker state in .kafka and any other port's apart.
const brokerPort = brokers.split(':').at(-1);
const brokerState = brokerPort === '9092' ? '.kafka' : `.kafka/port-${brokerPort}`;
const brokerPid = readFileSync(`${repositoryRoot}${brokerState}/broker.pid`, 'utf8').trim();
const sampleRss = async (): Promise<void> => {
  const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
  const rss = Number(/^process_resident_memory_bytes (\d+)/m.exec(metrics)?.[1] ?? 0);
  peakServiceRss = Math.max(peakServiceRss, rss);
  const { stdout } = await promisify(execFile)('ps', ['-o', 'rss=', '-p', brokerPid]);
  peakBrokerRss = Math.max(peakBrokerRss, Number(stdout.trim()) * 1024);
};
const sampler = setInterval(() => void sampleRss().catch(() => {}), 500);

try {
  const insurer: Caller = { sub: 'underwriter-bench', org: 'org-bench', roles: ['insurer'] };
  const owner: Caller = { sub: 'farmer-bench', givenName: 'Amina', familyName: 'Otieno' };
  // The insurer's own organization's data provider: a policy that names no source reads only its own
  // organization's field readings.
  const dataProvider: Caller = { sub: 'weather-feed', org: insurer.org, roles: ['data_provider'] };
  const subscription = await api.post('/insurance/webhooks/trigger-events', insurer, { url: receiverUrl });
  if (subscription.status !== 201) throw new Error(`subscribe: ${subscription.status}`);

  // 1. Latency: one field with 180 mm over 5 days (flood trigger 150 mm), many policies on it.
  const farm = await api.post('/farms/create', owner, { name: 'Shamba' });
  await grantInsurance(api, owner, farm.body.farm_id, insurer.org!);
  const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
    field_id: 'plot-1',
    name: 'North plot',
    area_ha: 2.5,
    location: { lat: -1.29, lon: 36.82 },
  });
  const termStartMs = Date.parse(`${dateOf(Date.now())}T00:00:00Z`) - 5 * DAY_MS;
  const readings = await api.post('/insurance/index-readings', dataProvider, {
    readings: [40, 40, 40, 40, 20].map((value, offset) => ({
      farm_id: farm.body.farm_id,
      field_id: field.body.field_id,
      index: 'rainfall_mm',
      date: dateOf(termStartMs + offset * DAY_MS),
      value,
    })),
  });
  if (readings.status !== 200) throw new Error(`readings: ${readings.status}`);
  const policyIds: string[] = [];
  for (let i = 0; i < LATENCY_BREACHES; i += 1) {
    const policy = await api.post('/insurance/policies', insurer, {
      farm_id: farm.body.farm_id,
      field_id: field.body.field_id,
      perils: ['flood'],
      sum_insured: 10000,
      currency: 'USD',
      term_start: dateOf(termStartMs),
      term_end: dateOf(termStartMs + 90 * DAY_MS),
    });
    if (policy.status !== 201) throw new Error(`issue: ${policy.status} ${JSON.stringify(policy.body)}`);
    policyIds.push(policy.body.policy_id);
  }
  const answered = new Map<string, number>();
  const evaluations = policyIds.map(async (policyId, i) => {
    await pause(i * LATENCY_SPACING_MS);
    const response = await api.post(`/insurance/policies/${policyId}/evaluate`, insurer, {});
    if (response.status !== 200) throw new Error(`evaluate: ${response.status}`);
    answered.set(policyId, performance.now());
  });
  await Promise.all(evaluations);
  while (policyIds.some((id) => !arrivals.has(id))) await pause(50);
  const latencies = policyIds
    .map((id) => Math.max(0, (arrivals.get(id) ?? 0) - (answered.get(id) ?? 0)))
    .sort((a, b) => a - b);

  // 2. Throughput: 1,000 breaches logged at once, in policies of the subscribed organization.
  const pool = createPool(database.url, createLogger({ level: 'silent' }), { max: 8 });
  const eventStore = createPostgresEventStore({ pool });
  const burstOf = (prefix: string) =>
    Array.from({ length: BURST_BREACHES }, (_, i) => {
      const story = policyStory({
        policyId: `${prefix}-${i}`,
        organizationId: insurer.org ?? '',
        perils: ['flood'],
        termStart: '2026-04-01',
        termEnd: '2026-04-30',
        issuedAt: '2026-03-28T08:00:00.000Z',
      });
      story.evaluate({ flood: [{ date: '2026-04-02', value: 200, revision: 1 }] }, '2026-04-05T06:00:00.000Z');
      return { id: `${prefix}-${i}`, streamId: story.streamId, events: story.takeNew() };
    });
  const seed = async (burst: ReturnType<typeof burstOf>): Promise<number> => {
    const started = performance.now();
    for (let i = 0; i < burst.length; i += 50)
      await Promise.all(
        burst.slice(i, i + 50).map(({ streamId, events }) => eventStore.append(streamId, events, 'no_stream')),
      );
    return performance.now() - started;
  };
  /** Waits for every arrival; then when they came, and over how long the dispatcher recorded and sent. */
  const arrivalsOf = async (prefix: string, burst: ReturnType<typeof burstOf>) => {
    while (burst.some(({ id }) => !arrivals.has(id))) await pause(50);
    const at = burst.map(({ id }) => arrivals.get(id) ?? 0);
    // Recording (consumer) against sending (senders): when each delivery was recorded, and when sent.
    const { rows } = await pool.query<{ recorded_ms: number; sent_ms: number }>(
      `select extract(epoch from max(d.created_at) - min(d.created_at)) * 1000 as recorded_ms,
              extract(epoch from max(a.attempted_at) - min(a.attempted_at)) * 1000 as sent_ms
         from webhook_deliveries d join webhook_delivery_attempts a using (event_id, webhook_id)
        where d.policy_id like $1`,
      [`${prefix}-%`],
    );
    return {
      first: Math.min(...at),
      last: Math.max(...at),
      recordedMs: Number(rows[0]?.recorded_ms),
      sentMs: Number(rows[0]?.sent_ms),
    };
  };
  const perSecond = (ms: number): string => ((BURST_BREACHES - 1) / (ms / 1000)).toFixed(0);

  const burst = burstOf('burst');
  const seeded = performance.now();
  const seedMs = await seed(burst);
  const live = await arrivalsOf('burst', burst);

  // 3. Backlog: logged while the service is down.
  await service.stop();
  const backlog = burstOf('backlog');
  const backlogSeedMs = await seed(backlog);
  const starting = performance.now();
  service = await startService(serviceEnv);
  const caughtUp = await arrivalsOf('backlog', backlog);
  await eventStore.close();
  await pool.end();
  await sampleRss();

  // 4. The plain sender: each body a real delivery's with its own policy id (same length as the ids here).
  const template = JSON.parse(deliveredBody) as { data: { policy_id: string } };
  const plainIds = Array.from({ length: BURST_BREACHES }, (_, i) => `plain-${i}`);
  const plainBodies = plainIds.map((id) => JSON.stringify({ ...template, data: { ...template.data, policy_id: id } }));
  // On its own thread, as the dispatcher sends from its own process: on a loaded machine the scheduler
  // shares CPU per thread, and a sender on the receiver's thread would get half the dispatcher's share.
  const plainStarted = performance.now();
  await new Promise<void>((resolve, reject) => {
    const sender = new Worker(
      `const { workerData: { url, ids, bodies, inFlight } } = require('node:worker_threads');
       let next = 0;
       const send = async () => {
         while (next < bodies.length) {
           const i = next++;
           const response = await fetch(url, {
             method: 'POST',
             headers: { 'content-type': 'application/json', 'webhook-id': ids[i] },
             body: bodies[i],
           });
           await response.arrayBuffer();
         }
       };
       Promise.all(Array.from({ length: inFlight }, send)).then(() => process.exit(0));`,
      {
        eval: true,
        workerData: { url: receiverUrl, ids: plainIds, bodies: plainBodies, inFlight: SENDS_PER_ENDPOINT },
      },
    );
    sender.on('error', reject);
    sender.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`plain sender exited ${code}`))));
  });
  const plainSentMs = performance.now() - plainStarted;
  const plainAt = plainIds.map((id) => arrivals.get(id) ?? Number.NaN);
  const plainSpan = Math.max(...plainAt) - Math.min(...plainAt);

  const mb = (bytes: number) => `${Math.round(bytes / 1_048_576)} MB`;
  if (latencies.length > 0) {
    console.log(`latency over ${latencies.length} breaches (evaluate response → webhook arrival):`);
    console.log(
      `  p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms`,
    );
  }
  console.log(`throughput: ${BURST_BREACHES} breaches appended in ${seedMs.toFixed(0)} ms`);
  console.log(
    `  first → last arrival ${(live.last - live.first).toFixed(0)} ms = ${perSecond(live.last - live.first)} deliveries/s; append start → last arrival ${(live.last - seeded).toFixed(0)} ms`,
  );
  console.log(
    `  deliveries recorded over ${live.recordedMs.toFixed(0)} ms, first → last attempt ${live.sentMs.toFixed(0)} ms`,
  );
  console.log(
    `backlog: ${BURST_BREACHES} breaches appended in ${backlogSeedMs.toFixed(0)} ms while the service was down`,
  );
  console.log(
    `  start → last arrival ${(caughtUp.last - starting).toFixed(0)} ms; first → last arrival ${(caughtUp.last - caughtUp.first).toFixed(0)} ms = ${perSecond(caughtUp.last - caughtUp.first)} deliveries/s`,
  );
  console.log(
    `  deliveries recorded over ${caughtUp.recordedMs.toFixed(0)} ms, first → last attempt ${caughtUp.sentMs.toFixed(0)} ms`,
  );
  console.log(
    `plain sender (fetch, ${SENDS_PER_ENDPOINT} in flight, ${Buffer.byteLength(deliveredBody)}-byte bodies): ${BURST_BREACHES} in ${plainSentMs.toFixed(0)} ms; first → last arrival ${plainSpan.toFixed(0)} ms = ${perSecond(plainSpan)} deliveries/s`,
  );
  console.log(
    `  ratio backlog ÷ plain ${(plainSpan / (caughtUp.last - caughtUp.first)).toFixed(2)}×, live burst ÷ plain ${(plainSpan / (live.last - live.first)).toFixed(2)}× (goal ≥ 0.5×)`,
  );
  console.log(`peak RSS: service ${mb(peakServiceRss)}, broker ${mb(peakBrokerRss)}`);
  console.log(
    `load average at end: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
} finally {
  clearInterval(sampler);
  await service.stop();
  receiver.close();
  await database.drop();
}

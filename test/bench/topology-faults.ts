import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase, kafkaBrokerScript } from '@cropcover/runtime/testing';
import { apiClient, type Caller } from '../src/support/api-client';
import { addDays, today } from '../src/support/calendar';
import { grantInsurance } from '../src/support/farm-access';
import { type RunningService, startProcess } from '../src/support/service-process';

// Issue 11's figures for the production topology (projector publishing to Kafka, command API, webhook
// dispatcher consuming breaches as a consumer group; separate processes, one database):
// 1. breach → webhook while the dispatcher is SIGKILLed and started again;
// 2. breach → webhook while the broker is stopped for 10 s and started again;
// 3. POST /farms/create latency while a webhook receiver holds each delivery 10 s.
// In 1 and 2 one policy is evaluated every 250 ms (each breaches and pays) from 2 s before the fault
// until 2 s after it; the latency runs from the evaluate answer to the first arrival.
// Needs the project's broker (it stops and starts it): `scripts/kafka-broker start`, then
//   npx tsx test/bench/topology-faults.ts

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const EVALUATION_SPACING_MS = 250;
const BROKER_OUTAGE_MS = 10_000;
const SLOW_RECEIVER_HOLD_MS = 10_000;
const FARM_CREATES = 40;
const tsx = 'node_modules/.bin/tsx';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const summary = (values: readonly number[]): string =>
  `n ${values.length}, p50 ${Math.round(percentile(values, 50))} ms, p99 ${Math.round(percentile(values, 99))} ms, ` +
  `max ${Math.round(Math.max(...values))} ms`;

/** First arrival of each policy's breach at the prompt receiver; the slow one holds every request. */
const arrivals = new Map<string, number>();
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (req.url === '/slow') {
      setTimeout(() => res.writeHead(200).end(), SLOW_RECEIVER_HOLD_MS);
      return;
    }
    const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { policy_id: string } };
    if (!arrivals.has(data.policy_id)) arrivals.set(data.policy_id, performance.now());
    res.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = (path: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`;

const database = await createTestDatabase('bench_topology_faults');
const env = {
  DATABASE_URL: database.url,
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
  // Topics and a dispatcher group of this run's own: other runs' breaches are not in this database.
  KAFKA_TOPIC_PREFIX: `bench-${randomUUID().slice(0, 8)}.`,
  WEBHOOK_ALLOW_INSECURE: 'true',
  MONITOR_ENABLED: 'false',
  RATE_LIMIT_PER_MINUTE: '1000000',
};
const running: RunningService[] = [];
const start = async (main: string, ready: string): Promise<RunningService> => {
  const service = await startProcess([tsx, `service/src/processes/${main}.ts`], env, ready);
  running.push(service);
  return service;
};

try {
  await start('projector', '/healthz');
  const commandApi = await start('command-api', '/readyz');
  let dispatcher = await start('webhook-dispatcher', '/healthz');
  const api = apiClient(commandApi.baseUrl);
  const farmer: Caller = { sub: 'bench-farmer', givenName: 'Bench', familyName: 'Mark' };
  const insurer: Caller = { sub: 'bench-underwriter', org: 'org-bench', roles: ['insurer'] };
  const feed: Caller = { sub: 'bench-feed', org: 'org-bench', roles: ['data_provider'] };
  const farm = await api.post('/farms/create', farmer, { name: 'Bench farm' });
  await grantInsurance(api, farmer, farm.body.farm_id, insurer.org!);
  await api.post('/insurance/webhooks/trigger-events', insurer, { url: receiverUrl('/hooks') });

  /** Policies on fields of their own, each with a storm yesterday posted after issue: one breach each. */
  const breachable = async (count: number): Promise<string[]> => {
    const policies: string[] = [];
    const readings = [];
    for (let n = 0; n < count; n += 1) {
      const field = await api.post(`/farms/${farm.body.farm_id}/fields`, farmer, {
        name: `Plot ${randomUUID().slice(0, 8)}`,
        area_ha: 1,
        location: { lat: -1.29, lon: 36.82 },
      });
      const policy = await api.post('/insurance/policies', insurer, {
        farm_id: farm.body.farm_id,
        field_id: field.body.field_id,
        perils: ['storm'],
        sum_insured: 10_000,
        currency: 'USD',
        term_start: addDays(today(), -5),
        term_end: addDays(today(), 90),
      });
      policies.push(policy.body.policy_id);
      readings.push({
        farm_id: farm.body.farm_id,
        field_id: field.body.field_id,
        index: 'wind_speed_ms',
        date: addDays(today(), -1),
        value: 32.5,
      });
    }
    const posted = await api.post('/insurance/index-readings', feed, { readings });
    if (posted.status !== 200) throw new Error(JSON.stringify(posted.body));
    return policies;
  };

  /** Evaluates one policy every 250 ms from 2 s before `fault` until it is over, then waits for their
   *  webhooks; each breach's evaluate answer → first arrival. */
  const breachesAcross = async (fault: () => Promise<void>): Promise<number[]> => {
    const policies = await breachable(Math.ceil(60_000 / EVALUATION_SPACING_MS));
    const answeredAt = new Map<string, number>();
    let evaluating = true;
    const evaluations = (async () => {
      for (const policyId of policies) {
        if (!evaluating) break;
        const evaluated = await api.post(`/insurance/policies/${policyId}/evaluate`, insurer, {});
        if (evaluated.status !== 200 || evaluated.body.payout_count !== 1)
          throw new Error(JSON.stringify(evaluated.body));
        answeredAt.set(policyId, performance.now());
        await sleep(EVALUATION_SPACING_MS);
      }
    })();
    await sleep(2_000);
    await fault();
    evaluating = false;
    await evaluations;
    while ([...answeredAt.keys()].some((policyId) => !arrivals.has(policyId))) await sleep(20);
    return [...answeredAt].map(([policyId, at]) => arrivals.get(policyId)! - at);
  };

  const warm = await breachesAcross(async () => {
    await sleep(3_000);
  });
  console.log(`warm: ${summary(warm)}`);

  let restartMs = 0;
  const dispatcherKill = await breachesAcross(async () => {
    const killedAt = performance.now();
    await dispatcher.kill();
    dispatcher = await start('webhook-dispatcher', '/healthz');
    restartMs = performance.now() - killedAt;
    await sleep(2_000);
  });
  console.log(`dispatcher SIGKILL (new one ready after ${Math.round(restartMs)} ms): ${summary(dispatcherKill)}`);

  let brokerUpAt = 0;
  const brokerRestart = await breachesAcross(async () => {
    await kafkaBrokerScript('stop');
    await sleep(BROKER_OUTAGE_MS);
    await kafkaBrokerScript('start');
    brokerUpAt = performance.now();
    await sleep(2_000);
  });
  console.log(`broker stopped ${BROKER_OUTAGE_MS / 1000} s and started: ${summary(brokerRestart)}`);
  // Fault 4's measure: from the broker accepting connections again to the webhooks it held back.
  const afterBrokerUp = [...arrivals.values()].filter((at) => at >= brokerUpAt).sort((a, b) => a - b);
  console.log(
    `broker accepting again → first webhook ${Math.round(afterBrokerUp[0]! - brokerUpAt)} ms, ` +
      `→ all held back delivered ${Math.round(afterBrokerUp.at(-1)! - brokerUpAt)} ms`,
  );

  const createFarms = async (): Promise<number[]> => {
    const latencies: number[] = [];
    for (let n = 0; n < FARM_CREATES; n += 1) {
      const from = performance.now();
      const created = await api.post('/farms/create', farmer, { name: `Latency farm ${n}` });
      if (created.status !== 201) throw new Error(JSON.stringify(created.body));
      latencies.push(performance.now() - from);
    }
    return latencies;
  };
  console.log(`farm create, receivers prompt: ${summary(await createFarms())}`);
  // A receiver that holds each delivery 10 s, with breaches going to it while farms are created.
  await api.post('/insurance/webhooks/trigger-events', insurer, { url: receiverUrl('/slow') });
  const slowBreaches = await breachable(8);
  for (const policyId of slowBreaches) await api.post(`/insurance/policies/${policyId}/evaluate`, insurer, {});
  await sleep(1_000);
  console.log(`farm create, a receiver holding each delivery 10 s: ${summary(await createFarms())}`);
} finally {
  for (const service of running.reverse()) await service.stop().catch(() => undefined);
  receiver.close();
  await database.drop();
}

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase } from '@cropcover/runtime/testing';
import { apiClient, type Caller } from '../src/support/api-client';
import { grantInsurance } from '../src/support/farm-access';
import { type RunningService, repositoryRoot, startProcess } from '../src/support/service-process';

// Breach → webhook latency through Kafka in the production topology (projector publishing, dispatcher
// consuming as a group), warm and right after the dispatcher was SIGKILLed and started again: issue 11,
// fault 4 (webhooks stopped for 20-30 s after a dispatcher crash while the group waited out the dead
// member's session). Needs the project's broker: `scripts/kafka-broker start`, then
//   npx tsx test/bench/webhook-restart.ts          (BENCH_KILLS, default 3)
// BENCH_BASELINE=<another checkout, installed> runs its dispatcher too, in turns with this one's, on the
// same topics, group and database: a client change measured against the one before it in one run.

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const KILLS = Number(process.env.BENCH_KILLS ?? 3);
const dispatcher = ['node_modules/.bin/tsx', 'service/src/processes/webhook-dispatcher.ts'];
const checkouts = [
  { name: 'this checkout', cwd: repositoryRoot },
  ...(process.env.BENCH_BASELINE ? [{ name: 'baseline', cwd: process.env.BENCH_BASELINE }] : []),
];

const arrivals = new Map<string, number>();
const receiver = createServer((req, res) => {
  req.resume();
  const id = req.headers['webhook-id'];
  if (typeof id === 'string' && !arrivals.has(id)) arrivals.set(id, performance.now());
  res.writeHead(200).end();
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const database = await createTestDatabase('bench_webhook_restart');
const env = {
  DATABASE_URL: database.url,
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
  // Topics and a dispatcher group of this run's own: other runs' breaches are not in this database.
  KAFKA_TOPIC_PREFIX: `bench-restart-${Date.now()}.`,
  WEBHOOK_ALLOW_INSECURE: 'true',
  MONITOR_ENABLED: 'false',
  RATE_LIMIT_PER_MINUTE: '1000000',
};
const processes: RunningService[] = [];
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const waitFor = async (check: () => boolean, timeoutMs = 120_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

try {
  processes.push(await startProcess(['node_modules/.bin/tsx', 'service/src/processes/projector.ts'], env, '/healthz'));
  const commandApi = await startProcess(
    ['node_modules/.bin/tsx', 'service/src/processes/command-api.ts'],
    env,
    '/readyz',
  );
  processes.push(commandApi);
  // Kept in `processes` from the start, so a failed run still stops it (the dispatcher of a failed run
  // once kept consuming the shared group after its database was gone).
  processes.push(await startProcess(dispatcher, env, '/healthz', checkouts[0]!.cwd));
  const api = apiClient(commandApi.baseUrl);

  const farmer: Caller = { sub: 'bench-farmer', givenName: 'Bench', familyName: 'Mark' };
  const insurer: Caller = { sub: 'bench-underwriter', org: 'org-bench', roles: ['insurer'] };
  const feed: Caller = { sub: 'bench-feed', org: 'org-bench', roles: ['data_provider'] };
  const farm = await api.post('/farms/create', farmer, { name: 'Bench farm' });
  await grantInsurance(api, farmer, farm.body.farm_id, insurer.org!);
  const field = await api.post(`/farms/${farm.body.farm_id}/fields`, farmer, {
    field_id: 'plot',
    name: 'Plot',
    area_ha: 1,
    location: { lat: -1.29, lon: 36.82 },
  });
  await api.post('/insurance/webhooks/trigger-events', insurer, { url: receiverUrl });
  const cover = {
    farm_id: farm.body.farm_id,
    field_id: field.body.field_id,
    perils: ['storm'],
    sum_insured: 10_000,
    currency: 'USD',
    term_start: day(-5),
    term_end: day(90),
  };
  const policies: string[] = [];
  for (let at = 0; at < 2 * KILLS * checkouts.length + 2; at += 1)
    policies.push((await api.post('/insurance/policies', insurer, cover)).body.policy_id);
  // Storm 32.5 m/s yesterday, posted after issue (a cover is not sold on a loss already in the data).
  const posted = await api.post('/insurance/index-readings', feed, {
    readings: [{ farm_id: farm.body.farm_id, field_id: 'plot', index: 'wind_speed_ms', date: day(-1), value: 32.5 }],
  });
  if (posted.status !== 200) throw new Error(JSON.stringify(posted.body));

  /** Evaluates the next policy and waits for its breach's webhook; ms from `from` to the arrival. */
  const breachDelivered = async (from: number): Promise<number> => {
    const policyId = policies.shift()!;
    const evaluated = await api.post(`/insurance/policies/${policyId}/evaluate`, insurer, {});
    if (evaluated.status !== 200 || evaluated.body.payout_count !== 1) throw new Error(JSON.stringify(evaluated.body));
    const known = new Set(arrivals.keys());
    await waitFor(() => arrivals.size > known.size);
    const id = [...arrivals.keys()].find((candidate) => !known.has(candidate))!;
    return Math.round(arrivals.get(id)! - from);
  };

  const warm: number[] = [];
  for (let at = 0; at < 2; at += 1) warm.push(await breachDelivered(performance.now()));
  const rows: string[] = [];
  for (let kill = 1; kill <= KILLS; kill += 1) {
    for (const checkout of checkouts) {
      if (checkouts.length > 1) {
        // The other checkout's dispatcher leaves the group; this one joins and consumes one breach first.
        await processes.pop()!.stop();
        processes.push(await startProcess(dispatcher, env, '/healthz', checkout.cwd));
        await breachDelivered(performance.now());
      }
      const killedAt = performance.now();
      await processes.pop()!.kill();
      processes.push(await startProcess(dispatcher, env, '/healthz', checkout.cwd));
      const readyAt = performance.now();
      const sinceReady = await breachDelivered(readyAt);
      rows.push(
        `| ${checkout.name} | ${kill} | ${Math.round(readyAt - killedAt)} | ${sinceReady} | ${Math.round(readyAt - killedAt) + sinceReady} |`,
      );
    }
  }
  console.log(`Warm breach → webhook: ${warm.join(', ')} ms`);
  console.log(
    '| dispatcher | kill | SIGKILL → new dispatcher ready (ms) | ready → webhook (ms) | SIGKILL → webhook (ms) |',
  );
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  for (const process of processes.reverse()) await process.stop().catch(() => undefined);
  receiver.close();
  await database.drop();
}

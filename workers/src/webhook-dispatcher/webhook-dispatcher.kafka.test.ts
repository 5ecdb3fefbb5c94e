import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { newWebhookSecret, storeWebhookSecret } from '@cropcover/application';
import type { IntegrationTopicNames } from '@cropcover/contracts';
import { policyStream, webhookStream } from '@cropcover/domain';
import type { NewEvent } from '@cropcover/eventstore';
import { type IntegrationPublisher, startIntegrationPublisher } from '@cropcover/projector';
import {
  describeWithKafka,
  openProjectorTestDatabase,
  type ProjectorTestDatabase,
  policyStory,
  readTopics,
  testBrokers,
} from '@cropcover/projector/testing';
import { createPlatformaticClient, type KafkaClient, systemClock } from '@cropcover/runtime';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { startWebhookDispatcher, type WebhookDispatcher } from './webhook-dispatcher';

// The dispatcher with KAFKA_BROKERS: breaches published by the real integration publisher to a real broker
// (scripts/kafka-broker), consumed as a consumer group, sent to a real HTTP receiver on 127.0.0.1. Each
// test uses topics and a group of its own. Waits are generous: another suite stops the shared broker
// for a while during the run.

const WAIT = { timeout: 60_000, interval: 100 };

interface Received {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const startReceiver = async () => {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
      received.push({ path: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    at: (path: string) => received.filter((request) => request.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

const metadata = (organizationId: string) => ({
  event_id: randomUUID(),
  occurred_at: new Date().toISOString(),
  actor: 'insurer-1',
  organization_id: organizationId,
  correlation_id: randomUUID(),
  causation_id: null,
  schema_version: 1,
  platform_version: '0.0.0-test',
});

/** A flood policy of `organizationId` whose evaluation breaches: the events, and the breach's event id. */
const breachedPolicy = (organizationId: string): { policyId: string; events: NewEvent[]; breachId: string } => {
  const policyId = randomUUID();
  const story = policyStory({
    policyId,
    organizationId,
    perils: ['flood'],
    termStart: '2026-04-01',
    termEnd: '2026-04-30',
    issuedAt: '2026-03-28T08:00:00.000Z',
  });
  story.evaluate({ flood: [{ date: '2026-04-02', value: 200, revision: 1 }] }, '2026-04-05T06:00:00.000Z');
  const events = story.takeNew();
  const breachId = events.find((event) => event.type === 'TriggerBreached')?.metadata.event_id;
  if (!breachId) throw new Error('200 mm of rain breaches the flood trigger');
  return { policyId, events, breachId };
};

/** A client whose consumers report each message they finished with, to see redeliveries happen. */
const observed = (kafka: KafkaClient, handled: string[]): KafkaClient => ({
  ...kafka,
  joinConsumerGroup: (options) =>
    kafka.joinConsumerGroup({
      ...options,
      onBatch: async (messages) => {
        await options.onBatch(messages);
        handled.push(...messages.map((message) => message.headers.ce_id ?? ''));
      },
    }),
});

/** A client whose consumers stop dead after recording the batch with the message `ceId`, before its offset
 *  can be committed: what a dispatcher killed between its PostgreSQL commit and Kafka's offset commit leaves. */
const stoppingBeforeOffsetCommit = (kafka: KafkaClient, ceId: string, recorded: string[]): KafkaClient => ({
  ...kafka,
  joinConsumerGroup: async (options) => {
    let release = (): void => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const member = await kafka.joinConsumerGroup({
      ...options,
      onBatch: async (messages) => {
        await options.onBatch(messages);
        if (!messages.some((message) => message.headers.ce_id === ceId)) return;
        recorded.push(ceId);
        await released;
        throw new Error('stopped before committing the offset');
      },
    });
    return {
      stop: async () => {
        release();
        await member.stop();
      },
    };
  },
});

/** A client whose consumers fail their first batch of several messages halfway: the first half recorded,
 *  then an error, as a dispatcher whose database went away mid-batch. */
const failingFirstBatchMidway = (kafka: KafkaClient, failedBatches: string[][]): KafkaClient => ({
  ...kafka,
  joinConsumerGroup: (options) =>
    kafka.joinConsumerGroup({
      ...options,
      onBatch: async (messages) => {
        if (failedBatches.length > 0 || messages.length < 2) return options.onBatch(messages);
        failedBatches.push(messages.map((message) => message.headers.ce_id ?? ''));
        await options.onBatch(messages.slice(0, Math.floor(messages.length / 2)));
        throw new Error('the read store went away mid-batch');
      },
    }),
});

describeWithKafka('webhook dispatcher consuming breaches from Kafka', () => {
  let t: ProjectorTestDatabase;
  let kafka: KafkaClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const running: { stop(): Promise<void> }[] = [];

  const freshRun = () => {
    const run = randomUUID().slice(0, 8);
    const topics: IntegrationTopicNames = {
      policyEvents: `test.policy-events.${run}`,
      registryEvents: `test.registry-events.${run}`,
      triggerBreaches: `test.trigger-breaches.${run}`,
      programmeEvents: `test.programme-events.${run}`,
      auditCheckpoints: `test.audit-checkpoints.${run}`,
    };
    return { topics, groupId: `test-webhook-dispatcher-${run}` };
  };

  const startDispatcher = async (
    client: KafkaClient,
    { topics, groupId }: ReturnType<typeof freshRun>,
  ): Promise<WebhookDispatcher> => {
    const dispatcher = await startWebhookDispatcher({
      eventStore: t.eventStore,
      db: t.db,
      clock: systemClock,
      logger: t.logger,
      allowInsecure: true,
      retryScale: 0.001,
      sending: { atOnce: 64, perEndpoint: 8 },
      kafka: { client, partitions: 1, topic: topics.triggerBreaches, groupId },
      auditGate: { awaitCheckpoint: false },
    });
    running.push(dispatcher);
    return dispatcher;
  };

  const startPublisher = async ({ topics }: ReturnType<typeof freshRun>): Promise<IntegrationPublisher> => {
    const publisher = await startIntegrationPublisher({
      eventStore: t.eventStore,
      db: t.db,
      kafka,
      partitions: 1,
      logger: t.logger,
      topics,
      checkpointName: `publisher-${topics.triggerBreaches}`,
      backoff: { initialMs: 100, maxMs: 1_000 },
    });
    running.push(publisher);
    return publisher;
  };

  const subscribe = async (organizationId: string, path: string) => {
    const webhookId = randomUUID();
    const secret = newWebhookSecret();
    await storeWebhookSecret(t.db, webhookId, secret, new Date());
    const created = {
      webhook_id: webhookId,
      organization_id: organizationId,
      event_type: 'trigger.breached',
      url: receiver.url(path),
      description: null,
      created_at: new Date().toISOString(),
    };
    await t.eventStore.append(
      webhookStream(webhookId),
      [{ type: 'WebhookSubscriptionCreated', data: created, metadata: metadata(organizationId) }],
      'no_stream',
    );
    return { webhookId, secret };
  };

  const logBreach = async (policy: ReturnType<typeof breachedPolicy>) => {
    await t.eventStore.append(policyStream(policy.policyId), policy.events, 'no_stream');
    return policy;
  };

  const deliveriesOf = (eventId: string) =>
    t.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).execute();

  beforeAll(async () => {
    t = await openProjectorTestDatabase('kafka_webhook_dispatcher');
    kafka = createPlatformaticClient({ brokers: testBrokers, clientId: 'webhook-dispatcher-test', logger: t.logger });
    receiver = await startReceiver();
  });

  afterEach(async () => {
    for (const process of running.splice(0).reverse()) await process.stop();
  });

  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('delivers a breach read from Kafka, signed, to the subscriptions created before it in the log', async () => {
    const run = freshRun();
    const organizationId = `org-${randomUUID()}`;
    const earlier = await subscribe(organizationId, '/earlier');
    await subscribe(`other-${organizationId}`, '/other-organization');
    await startDispatcher(kafka, run);
    const { policyId, breachId } = await logBreach(breachedPolicy(organizationId));
    await subscribe(organizationId, '/later');

    // The breach is in the log, but this dispatcher takes breaches from Kafka only.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.at('/earlier')).toHaveLength(0);
    expect(await deliveriesOf(breachId)).toHaveLength(0);

    await startPublisher(run);
    const [request] = await vi.waitFor(() => {
      const requests = receiver.at('/earlier');
      expect(requests).toHaveLength(1);
      return requests;
    }, WAIT);
    const body = new Webhook(earlier.secret).verify(request?.body ?? '', request?.headers ?? {});
    expect(request?.headers['webhook-id']).toBe(breachId);
    expect(body).toMatchObject({
      type: 'trigger.breached',
      data: { event_id: breachId, policy_id: policyId, organization_id: organizationId, peril: 'flood' },
    });
    const deliveries = await deliveriesOf(breachId);
    expect(deliveries.map((delivery) => delivery.webhook_id)).toEqual([earlier.webhookId]);
    expect(receiver.at('/other-organization')).toHaveLength(0);
    expect(receiver.at('/later')).toHaveLength(0);
  }, 120_000);

  it('sends no second webhook when Kafka delivers the same message (same ce_id) again', async () => {
    const run = freshRun();
    const organizationId = `org-${randomUUID()}`;
    await subscribe(organizationId, '/redelivered');
    const handled: string[] = [];
    await startDispatcher(observed(kafka, handled), run);
    const { breachId } = await logBreach(breachedPolicy(organizationId));
    await startPublisher(run);
    await vi.waitFor(() => expect(receiver.at('/redelivered')).toHaveLength(1), WAIT);

    const reader = await readTopics(kafka, [run.topics.triggerBreaches]);
    const published = await reader.waitFor((messages) =>
      expect(messages.filter((message) => message.headers.ce_id === breachId)).toHaveLength(1),
    );
    await reader.stop();
    const copy = published.find((message) => message.headers.ce_id === breachId);
    const producer = await kafka.connectProducer();
    await producer.send([
      {
        topic: run.topics.triggerBreaches,
        messages: [{ key: copy?.key ?? '', value: copy?.value ?? '', headers: copy?.headers ?? {} }],
      },
    ]);
    await producer.disconnect();

    await vi.waitFor(() => expect(handled.filter((id) => id === breachId)).toHaveLength(2), WAIT);
    // Time enough for a second send, had one been recorded.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.at('/redelivered')).toHaveLength(1);
    expect(await deliveriesOf(breachId)).toMatchObject([{ status: 'delivered', attempt_count: 1 }]);
  }, 120_000);

  it('delivers once when the dispatcher stops after recording a breach but before committing its offset', async () => {
    const run = freshRun();
    const organizationId = `org-${randomUUID()}`;
    await subscribe(organizationId, '/restarted');
    const policy = breachedPolicy(organizationId);
    const { breachId } = policy;
    const recorded: string[] = [];
    const first = await startDispatcher(stoppingBeforeOffsetCommit(kafka, breachId, recorded), run);
    await logBreach(policy);
    await startPublisher(run);
    await vi.waitFor(() => expect(recorded).toContain(breachId), WAIT);
    await vi.waitFor(async () => expect(await deliveriesOf(breachId)).toMatchObject([{ status: 'delivered' }]), WAIT);
    running.splice(running.indexOf(first), 1);
    await first.stop();

    const handled: string[] = [];
    await startDispatcher(observed(kafka, handled), run);
    // Its offset was never committed, so the group gets the message again…
    await vi.waitFor(() => expect(handled).toContain(breachId), WAIT);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // …and the receiver still sees one webhook, under the breach's id.
    const requests = receiver.at('/restarted');
    expect(requests.map((request) => request.headers['webhook-id'])).toEqual([breachId]);
    expect(await deliveriesOf(breachId)).toMatchObject([{ status: 'delivered', attempt_count: 1 }]);
  }, 120_000);

  it('sends each breach once when a batch fails halfway and is handed again', async () => {
    const run = freshRun();
    const organizationId = `org-${randomUUID()}`;
    await subscribe(organizationId, '/midway');
    // Logged before the publisher starts, so they are published, and fetched, together.
    const breachIds: string[] = [];
    for (let i = 0; i < 10; i += 1) breachIds.push((await logBreach(breachedPolicy(organizationId))).breachId);
    const failedBatches: string[][] = [];
    await startDispatcher(failingFirstBatchMidway(kafka, failedBatches), run);
    await startPublisher(run);

    await vi.waitFor(() => expect(receiver.at('/midway')).toHaveLength(breachIds.length), WAIT);
    // Time enough for a second send, had one been recorded.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(failedBatches).toHaveLength(1);
    expect(failedBatches[0]?.length).toBeGreaterThan(1);
    const requests = receiver.at('/midway');
    expect(requests.map((request) => request.headers['webhook-id']).sort()).toEqual([...breachIds].sort());
    for (const breachId of breachIds)
      expect(await deliveriesOf(breachId)).toMatchObject([{ status: 'delivered', attempt_count: 1 }]);
  }, 120_000);
});

import { randomUUID } from 'node:crypto';
import {
  IntegrationMessageHeaders,
  type IntegrationTopicNames,
  PolicyEventMessage,
  ProgrammeEventMessage,
  RegistryEventMessage,
  TriggerBreachMessage,
} from '@cropcover/contracts';
import {
  bindTreaty,
  farmerStream,
  farmStream,
  initialReinsuranceLedger,
  policyStream,
  programmeStream,
  reinsuranceStream,
  shareableIdStream,
} from '@cropcover/domain';
import { exposureReserved, policyExposure, programmeCreated } from '@cropcover/domain/testing';
import type { NewEvent } from '@cropcover/eventstore';
import { readCheckpoint } from '@cropcover/read-store';
import type { IncomingMessage, KafkaClient } from '@cropcover/runtime';
import { createPlatformaticClient } from '@cropcover/runtime';
import { describeWithKafka, kafkaBrokerScript, testBrokers } from '@cropcover/runtime/testing';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { policyStory } from '../testing/policy-story';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projector-test-database';
import { farmerRegistered, farmRegistered, newEvent, shareableIdClaimed } from '../testing/registry-events';
import { atLeast, readTopics, type TopicReader } from '../testing/topic-reader';
import { type IntegrationPublisher, startIntegrationPublisher } from './integration-publisher';
import { PUBLISH_LAG_EVENTS_METRIC } from './publish-lag-metrics';

// Against the real broker (scripts/kafka-broker) and real PostgreSQL. Each test publishes to topics
// of its own, so runs never see each other's messages.

const freshTopics = (): IntegrationTopicNames => {
  const run = randomUUID().slice(0, 8);
  return {
    policyEvents: `test.policy-events.${run}`,
    registryEvents: `test.registry-events.${run}`,
    triggerBreaches: `test.trigger-breaches.${run}`,
    programmeEvents: `test.programme-events.${run}`,
    auditCheckpoints: `test.audit-checkpoints.${run}`,
  };
};

/** Issued, breached on flood (a payout), settled, then breached on storm: every kind of policy event. */
const breachingPolicy = (policyId: string): NewEvent[] => {
  const story = policyStory({
    policyId,
    organizationId: 'org-a',
    perils: ['flood', 'storm'],
    termStart: '2026-04-01',
    termEnd: '2026-04-30',
    issuedAt: '2026-03-28T08:00:00.000Z',
  });
  story.evaluate({ flood: [{ date: '2026-04-02', value: 200, revision: 1 }] }, '2026-04-05T06:00:00.000Z');
  const payoutId = story.state.payouts[0]?.payoutId;
  if (!payoutId) throw new Error('the flood breach approves a payout');
  story.settle(payoutId, '2026-04-06T09:00:00.000Z');
  story.evaluate(
    {
      flood: [{ date: '2026-04-02', value: 200, revision: 1 }],
      storm: [{ date: '2026-04-06', value: 30, revision: 1 }],
    },
    '2026-04-07T06:00:00.000Z',
  );
  return story.takeNew();
};

/** A programme's limits and a reservation on its stream, and a treaty bound on its reinsurance stream. */
const programmeBook = (programmeId: string): { programme: NewEvent[]; reinsurance: NewEvent[] } => {
  const created = programmeCreated({ programmeId });
  const [bound] = bindTreaty(
    {
      actor: { subject: 'u', organizationId: 'org-1', isAdmin: false },
      treatyId: 't-1',
      programme: { programmeId, organizationId: 'org-1', currency: 'KES' },
      request: { type: 'quota_share', cession_rate: 0.75, ceding_commission: 0 },
      now: new Date('2026-03-01T00:00:00.000Z'),
    },
    initialReinsuranceLedger,
  );
  return {
    programme: [
      newEvent(created.type, created.data),
      newEvent('ExposureReserved', exposureReserved(policyExposure('p-a', 100), programmeId).data),
    ],
    reinsurance: [newEvent(bound!.type, bound!.data)],
  };
};

/** What a downstream team writes knowing only @cropcover/contracts: parse headers and value by topic. */
const consumeAsDownstream = (topics: IntegrationTopicNames, message: IncomingMessage) => {
  const headers = IntegrationMessageHeaders.parse(message.headers);
  const value: unknown = JSON.parse(message.value ?? '');
  if (message.topic === topics.policyEvents) return { headers, event: PolicyEventMessage.parse(value) };
  if (message.topic === topics.registryEvents) return { headers, event: RegistryEventMessage.parse(value) };
  if (message.topic === topics.programmeEvents) return { headers, event: ProgrammeEventMessage.parse(value) };
  return { headers, event: TriggerBreachMessage.parse(value) };
};

const ceIds = (messages: readonly IncomingMessage[], topic: string): string[] =>
  messages.filter((message) => message.topic === topic).map((message) => message.headers.ce_id ?? '');

const FAST_BACKOFF = { initialMs: 100, maxMs: 1_000 };

describeWithKafka('integration publisher against a real broker', () => {
  let t: ProjectorTestDatabase;
  let kafka: KafkaClient;
  let publisher: IntegrationPublisher | undefined;
  let reader: TopicReader | undefined;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('kafka_publisher');
    kafka = createPlatformaticClient({ brokers: testBrokers, clientId: 'publisher-test', logger: t.logger });
  });

  afterEach(async () => {
    await reader?.stop();
    await publisher?.stop();
    reader = undefined;
    publisher = undefined;
  });

  afterAll(async () => {
    await t.close();
  });

  it('publishes every event once per ce_id, in order per aggregate, in the documented shapes', async () => {
    const topics = freshTopics();
    const policyIds = ['p-a', 'p-b', 'p-c'];
    const policyEvents = new Map(policyIds.map((id) => [id, breachingPolicy(id)]));
    for (const [id, events] of policyEvents) await t.eventStore.append(policyStream(id), events, 'no_stream');
    await t.eventStore.append(farmerStream('f1'), [farmerRegistered('f1', '2026-01-01T00:00:00.000Z')], 'no_stream');
    await t.eventStore.append(farmStream('m1'), [farmRegistered('m1', 'f1', '2026-01-02T00:00:00.000Z')], 'no_stream');
    await t.eventStore.append(
      shareableIdStream('X'),
      [shareableIdClaimed({ code: 'X', claimed_by: 'farm-m1' })],
      'no_stream',
    );
    const book = programmeBook('prog-k');
    await t.eventStore.append(programmeStream('prog-k'), book.programme, 'no_stream');
    await t.eventStore.append(reinsuranceStream('prog-k'), book.reinsurance, 'no_stream');
    const allPolicyEvents = [...policyEvents.values()].flat();
    const breaches = allPolicyEvents.filter((event) => event.type === 'TriggerBreached');
    expect(breaches.length).toBe(2 * policyIds.length);

    const metricsRegistry = new Registry();
    publisher = await startIntegrationPublisher({
      eventStore: t.eventStore,
      db: t.db,
      kafka,
      partitions: 3,
      logger: t.logger,
      metricsRegistry,
      topics,
      checkpointName: `publisher-${topics.policyEvents}`,
      batchSize: 4,
      backoff: FAST_BACKOFF,
    });
    // The publisher creates the topics: a downstream consumer subscribes once they exist.
    await expect.poll(() => publisher?.checkpoint(), { timeout: 20_000 }).toEqual(await t.eventStore.headPosition());
    reader = await readTopics(kafka, Object.values(topics));
    const received = await reader.waitFor((messages) => {
      atLeast(topics.policyEvents, allPolicyEvents.length)(messages);
      atLeast(topics.triggerBreaches, breaches.length)(messages);
      atLeast(topics.registryEvents, 2)(messages);
      atLeast(topics.programmeEvents, 3)(messages);
    });
    // Enough time for a duplicate to show up if the publisher sent one.
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const policyIdsSent = ceIds(reader.messages, topics.policyEvents);
    expect(policyIdsSent).toHaveLength(allPolicyEvents.length);
    expect(new Set(policyIdsSent)).toEqual(new Set(allPolicyEvents.map((event) => event.metadata.event_id)));
    expect(ceIds(reader.messages, topics.triggerBreaches).sort()).toEqual(
      breaches.map((event) => event.metadata.event_id).sort(),
    );
    expect(ceIds(reader.messages, topics.registryEvents)).toHaveLength(2);

    const consumed = received.map((message) => ({ message, ...consumeAsDownstream(topics, message) }));
    for (const id of policyIds) {
      const ofPolicy = consumed.filter(({ message }) => message.topic === topics.policyEvents && message.key === id);
      expect(ofPolicy.map(({ headers }) => headers.ce_id)).toEqual(
        policyEvents.get(id)?.map((event) => event.metadata.event_id),
      );
      expect(ofPolicy.map(({ event }) => event.stream_revision)).toEqual(ofPolicy.map((_, revision) => revision));
      expect(new Set(ofPolicy.map(({ message }) => message.partition)).size).toBe(1);
    }
    const registry = consumed.filter(({ message }) => message.topic === topics.registryEvents);
    expect(registry.map(({ message }) => message.key).sort()).toEqual(['f1', 'm1']);
    // Programme and treaty events on their own topic, keyed by the programme, in the documented shape.
    const programme = consumed.filter(({ message }) => message.topic === topics.programmeEvents);
    expect(programme.map(({ message, event }) => [message.key, event])).toEqual([
      ['prog-k', expect.objectContaining({ stream_kind: 'programme', type: 'ProgrammeCreated' })],
      ['prog-k', expect.objectContaining({ stream_kind: 'programme', type: 'ExposureReserved' })],
      ['prog-k', expect.objectContaining({ stream_kind: 'reinsurance', type: 'TreatyBound' })],
    ]);
    expect(ceIds(reader.messages, topics.programmeEvents)).toHaveLength(3);

    const lag = await metricsRegistry.getSingleMetric(PUBLISH_LAG_EVENTS_METRIC)?.get();
    expect(lag?.values[0]?.value).toBe(0);
  });

  it('loses no breach appended while the broker is stopped for 10 s, and publishes them once it is back', async () => {
    // Fails loudly when the broker is not the one scripts/kafka-broker runs: only that one can be stopped.
    await kafkaBrokerScript('status');
    const topics = freshTopics();
    const checkpointName = `publisher-${topics.policyEvents}`;
    publisher = await startIntegrationPublisher({
      eventStore: t.eventStore,
      db: t.db,
      kafka,
      partitions: 3,
      logger: t.logger,
      topics,
      checkpointName,
      batchSize: 50,
      backoff: FAST_BACKOFF,
    });
    const before = breachingPolicy(`before-${topics.policyEvents}`);
    await t.eventStore.append(policyStream(`before-${topics.policyEvents}`), before, 'no_stream');
    await expect.poll(() => publisher?.checkpoint(), { timeout: 20_000 }).toEqual(await t.eventStore.headPosition());
    reader = await readTopics(kafka, [topics.triggerBreaches]);
    await reader.waitFor(atLeast(topics.triggerBreaches, 2));
    await reader.stop();
    reader = undefined;
    const publishedBefore = publisher.checkpoint();

    const during: NewEvent[] = [];
    await kafkaBrokerScript('stop');
    const outageStarted = Date.now();
    try {
      for (let round = 0; round < 5; round += 1) {
        const policyId = `during-${round}-${topics.policyEvents}`;
        const events = breachingPolicy(policyId);
        await t.eventStore.append(policyStream(policyId), events, 'no_stream');
        during.push(...events.filter((event) => event.type === 'TriggerBreached'));
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
      expect(Date.now() - outageStarted).toBeGreaterThanOrEqual(10_000);
      // Nothing acknowledged, so the checkpoint has not moved: a restart now would publish them all.
      expect(publisher.checkpoint()).toEqual(publishedBefore);
      expect(await readCheckpoint(t.db, checkpointName)).toEqual(publishedBefore);
    } finally {
      await kafkaBrokerScript('start');
    }

    reader = await readTopics(kafka, [topics.triggerBreaches, topics.policyEvents]);
    // This test's publisher follows the whole log of the file's database, earlier tests' breaches too.
    const logged = await t.eventStore.readAll('start', 10_000);
    const expected = logged.filter((event) => event.type === 'TriggerBreached').map((event) => event.metadata.event_id);
    expect(expected).toEqual(expect.arrayContaining(during.map((event) => event.metadata.event_id)));
    const received = await reader.waitFor((messages) => {
      expect(new Set(ceIds(messages, topics.triggerBreaches))).toEqual(new Set(expected));
    }, 60_000);
    for (const message of received.filter((candidate) => candidate.topic === topics.triggerBreaches))
      TriggerBreachMessage.parse(JSON.parse(message.value ?? ''));
    await expect.poll(() => publisher?.checkpoint(), { timeout: 10_000 }).toEqual(await t.eventStore.headPosition());

    // Issue 11, fault 5: after the documented dedupe (first of each ce_id) no key's revisions go backwards.
    const policyMessages = await reader.waitFor((messages) => {
      const during5 = `during-4-${topics.policyEvents}`;
      expect(messages.some((message) => message.key === during5)).toBe(true);
    }, 60_000);
    const seen = new Set<string>();
    const revisionsByKey = new Map<string, number[]>();
    for (const message of policyMessages.filter((candidate) => candidate.topic === topics.policyEvents)) {
      const { headers, event } = consumeAsDownstream(topics, message);
      if (seen.has(headers.ce_id)) continue;
      seen.add(headers.ce_id);
      revisionsByKey.set(message.key ?? '', [...(revisionsByKey.get(message.key ?? '') ?? []), event.stream_revision]);
    }
    for (const [key, revisions] of revisionsByKey)
      expect(revisions, key).toEqual(revisions.map((_, revision) => revision));
  }, 120_000);
});

import { randomUUID } from 'node:crypto';
import { farmerKeysIn, withSealedPersonalData } from '@cropcover/application';
import type { IntegrationTopicNames } from '@cropcover/contracts';
import { farmerStream, farmStream, policyStream } from '@cropcover/domain';
import { createPlatformaticClient, type KafkaClient, loadConfig } from '@cropcover/runtime';
import { describeWithKafka, testBrokers } from '@cropcover/runtime/testing';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { policyStory } from '../testing/policy-story';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projector-test-database';
import { farmAttributes, farmerRegistered, farmRegistered, newEvent } from '../testing/registry-events';
import { atLeast, readTopics, type TopicReader } from '../testing/topic-reader';
import { type IntegrationPublisher, startIntegrationPublisher } from './integration-publisher';

// SPEC §6 erasure against the real broker: a farmer's events are published, the farmer is erased, and a
// marker in their name, their farm's name and the farm name frozen into their policy is in no message of
// any topic, read back from the beginning. Topics cannot be erased, so the marker must never reach them.

describeWithKafka('an erased farmer on the integration topics', () => {
  let t: ProjectorTestDatabase;
  let kafka: KafkaClient;
  let publisher: IntegrationPublisher | undefined;
  let reader: TopicReader | undefined;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('kafka_erased_farmer');
    kafka = createPlatformaticClient({ brokers: testBrokers, clientId: 'erasure-test', logger: t.logger });
  });

  afterEach(async () => {
    await reader?.stop();
    await publisher?.stop();
  });

  afterAll(async () => {
    await t.close();
  });

  it('carries the marker in no message, before or after the erasure', async () => {
    const run = randomUUID().slice(0, 8);
    const topics: IntegrationTopicNames = {
      policyEvents: `test.policy-events.${run}`,
      registryEvents: `test.registry-events.${run}`,
      triggerBreaches: `test.trigger-breaches.${run}`,
      programmeEvents: `test.programme-events.${run}`,
      auditCheckpoints: `test.audit-checkpoints.${run}`,
    };
    const marker = `Zqkafka${run}`;
    const keys = farmerKeysIn(t.db, loadConfig({}).personalDataKeys);
    // The service's writers append through the sealing store; the publisher reads the log beneath it.
    const sealed = withSealedPersonalData(t.eventStore, keys);
    const farmerId = `fk-${run}`;
    await sealed.append(
      farmerStream(farmerId),
      [farmerRegistered(farmerId, '2026-01-01T00:00:00.000Z', { first_name: `Amina${marker}` })],
      'no_stream',
    );
    await sealed.append(
      farmStream(`mk-${run}`),
      [farmRegistered(`mk-${run}`, farmerId, '2026-01-02T00:00:00.000Z', farmAttributes({ name: `Shamba${marker}` }))],
      'no_stream',
    );
    const story = policyStory({
      policyId: `pk-${run}`,
      organizationId: 'org-a',
      perils: ['flood'],
      termStart: '2026-04-01',
      termEnd: '2026-04-30',
      issuedAt: '2026-03-28T08:00:00.000Z',
    });
    const [issued] = story.takeNew();
    const policy = {
      ...issued!,
      data: { ...(issued!.data as object), owner_farmer_id: farmerId, farm_name: `Shamba${marker}` },
    };
    await sealed.append(policyStream(`pk-${run}`), [policy], 'no_stream');

    publisher = await startIntegrationPublisher({
      eventStore: t.eventStore,
      db: t.db,
      kafka,
      partitions: 1,
      logger: t.logger,
      topics,
      checkpointName: `publisher-${run}`,
      batchSize: 10,
      backoff: { initialMs: 100, maxMs: 1_000 },
    });
    reader = await readTopics(kafka, [topics.registryEvents, topics.policyEvents]);
    await reader.waitFor((messages) => {
      atLeast(topics.registryEvents, 2)(messages);
      atLeast(topics.policyEvents, 1)(messages);
    });

    await keys.erase(farmerId, new Date());
    await sealed.append(
      farmerStream(farmerId),
      [newEvent('FarmerErased', { farmer_id: farmerId, erased_at: new Date().toISOString(), erased_by: 'farmer' })],
      0,
    );
    await reader.stop();
    // A reader of its own after the erasure: every message the topics hold, from the beginning.
    reader = await readTopics(kafka, [topics.registryEvents, topics.policyEvents]);
    const held = await reader.waitFor((messages) => {
      atLeast(topics.registryEvents, 3)(messages);
      atLeast(topics.policyEvents, 1)(messages);
    });
    const texts = held.map((message) => `${message.key} ${JSON.stringify(message.headers)} ${message.value}`);
    expect(texts.filter((text) => text.includes(marker))).toEqual([]);
    // What stands in its place is the sealed text, which no key opens any more.
    expect(texts.filter((text) => text.includes(`sealed:v2:${farmerId}:`))).toHaveLength(3);
  }, 60_000);
});

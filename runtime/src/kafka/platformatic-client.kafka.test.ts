import { randomUUID } from 'node:crypto';
import { Admin } from '@platformatic/kafka';
import { afterEach, expect, it, vi } from 'vitest';
import { createLogger } from '../logger';
import { describeWithKafka, testBrokers } from '../testing/kafka-test-broker';
import type { ConsumerGroupMember, IncomingMessage, KafkaProducer } from './kafka-client';
import { createPlatformaticClient } from './platformatic-client';

// The guarantees publisher and dispatcher rely on, held by the adapter against a real broker. The test
// reads the group through the library's admin client: the port has no reason to describe groups.

const logger = createLogger({ level: 'silent' });
const kafka = createPlatformaticClient({ brokers: testBrokers, clientId: 'platformatic-client-test', logger });
const WAIT = { timeout: 30_000, interval: 100 };

const membersOf = async (groupId: string) => {
  const admin = new Admin({ clientId: 'platformatic-client-test', bootstrapBrokers: [...testBrokers] });
  try {
    return [...((await admin.describeGroups({ groups: [groupId] })).get(groupId)?.members.values() ?? [])];
  } finally {
    await admin.close();
  }
};

describeWithKafka('Kafka client on @platformatic/kafka', () => {
  const running: (ConsumerGroupMember | KafkaProducer)[] = [];
  afterEach(async () => {
    for (const member of running.splice(0).reverse()) await ('stop' in member ? member.stop() : member.disconnect());
  });

  it('joins as the static member it is named, and leaves the group when stopped', async () => {
    const topic = `client-test-${randomUUID()}`;
    const groupId = `client-test-${randomUUID()}`;
    await kafka.ensureTopics([{ name: topic, partitions: 2 }]);
    const member = await kafka.joinConsumerGroup({
      groupId,
      groupInstanceId: 'dispatcher-1',
      topics: [topic],
      fromBeginning: true,
      onBatch: async () => {},
    });
    await vi.waitFor(
      async () => expect(await membersOf(groupId)).toMatchObject([{ groupInstanceId: 'dispatcher-1' }]),
      WAIT,
    );
    await member.stop();
    expect(await membersOf(groupId)).toEqual([]);
  }, 60_000);

  it('hands the same batch again after a rejection, before anything later of its key, and commits only what was handled', async () => {
    const topic = `client-test-${randomUUID()}`;
    const groupId = `client-test-${randomUUID()}`;
    await kafka.ensureTopics([{ name: topic, partitions: 3 }]);
    const producer = await kafka.connectProducer();
    running.push(producer);
    await producer.send([
      {
        topic,
        messages: ['r0', 'r1', 'r2'].map((revision) => ({
          key: 'policy-a',
          value: revision,
          headers: { ce_id: revision },
        })),
      },
    ]);
    const tries: string[][] = [];
    const handled: string[] = [];
    const member = await kafka.joinConsumerGroup({
      groupId,
      topics: [topic],
      fromBeginning: true,
      partitionsAtOnce: 3,
      onBatch: async (messages: readonly IncomingMessage[]) => {
        const values = messages.map((message) => message.value ?? '');
        tries.push(values);
        if (values.includes('r1') && tries.length === 1) throw new Error('the read store is away');
        handled.push(...values);
      },
    });
    await vi.waitFor(() => expect(handled).toEqual(['r0', 'r1', 'r2']), WAIT);
    // The rejected batch came back as it was, not with its first messages dropped or later ones ahead.
    expect(tries[1]).toEqual(tries[0]);
    await member.stop();

    // The group's committed offsets cover all three: a member joining later starts after them.
    await producer.send([{ topic, messages: [{ key: 'policy-a', value: 'r3', headers: { ce_id: 'r3' } }] }]);
    const later: string[] = [];
    running.push(
      await kafka.joinConsumerGroup({
        groupId,
        topics: [topic],
        fromBeginning: true,
        onBatch: async (messages) => {
          later.push(...messages.map((message) => message.value ?? ''));
        },
      }),
    );
    await vi.waitFor(() => expect(later).toEqual(['r3']), WAIT);
  }, 60_000);

  it('hands what one fetch brought for a partition as one batch, in offset order, one batch at a time', async () => {
    const topic = `client-test-${randomUUID()}`;
    const groupId = `client-test-${randomUUID()}`;
    await kafka.ensureTopics([{ name: topic, partitions: 1 }]);
    const producer = await kafka.connectProducer();
    running.push(producer);
    const values = Array.from({ length: 200 }, (_, i) => `m${i}`);
    await producer.send([
      { topic, messages: values.map((value) => ({ key: 'policy-a', value, headers: { ce_id: value } })) },
    ]);
    const batches: string[][] = [];
    let inHand = 0;
    let mostInHand = 0;
    running.push(
      await kafka.joinConsumerGroup({
        groupId,
        topics: [topic],
        fromBeginning: true,
        onBatch: async (messages) => {
          inHand += 1;
          mostInHand = Math.max(mostInHand, inHand);
          await new Promise((resolve) => setTimeout(resolve, 20));
          batches.push(messages.map((message) => message.value ?? ''));
          inHand -= 1;
        },
      }),
    );
    await vi.waitFor(() => expect(batches.flat()).toEqual(values), WAIT);
    expect(batches.length).toBeLessThan(values.length / 10);
    expect(mostInHand).toBe(1);
  }, 60_000);
});

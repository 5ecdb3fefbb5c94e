import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditCheckpointMessage, IntegrationMessageHeaders } from '@cropcover/contracts';
import { createPlatformaticClient, type KafkaClient, settableClock } from '@cropcover/runtime';
import { describeWithKafka, testBrokers } from '@cropcover/runtime/testing';
import { generateSignerKey, openCheckpoint, parseSignerKey } from '@cropcover/verifiable-log';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projector-test-database';
import { newEvent } from '../testing/registry-events';
import { atLeast, readTopics } from '../testing/topic-reader';
import { createAuditIntegrator } from './audit-integrator';
import { startCheckpointDistribution } from './checkpoint-distribution';
import { directoryCheckpointSink } from './checkpoint-sink';

// Against the real broker (scripts/kafka-broker) and real PostgreSQL: what a downstream auditor reading
// `cropcover.audit-checkpoints.v1` gets, knowing only @cropcover/contracts and the log's public key.

const ORIGIN = 'cropcover.test/audit/v1';

describeWithKafka('audit checkpoints distributed to Kafka', () => {
  let t: ProjectorTestDatabase;
  let kafka: KafkaClient;
  const signer = parseSignerKey(generateSignerKey(ORIGIN));
  const clock = settableClock('2026-05-01T00:00:00Z');

  beforeAll(async () => {
    t = await openProjectorTestDatabase('audit_checkpoint_kafka');
    kafka = createPlatformaticClient({ brokers: testBrokers, clientId: 'checkpoint-test', logger: t.logger });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('puts each checkpoint the sink holds on the topic, in order of size, its signed note verifiable', async () => {
    const integrator = createAuditIntegrator({
      pool: t.pool,
      signer,
      origin: ORIGIN,
      sink: directoryCheckpointSink(await mkdtemp(join(tmpdir(), 'cropcover-checkpoint-kafka-'))),
      clock,
      checkpointEveryLeaves: 3,
      batchSize: 3,
    });
    const integrate = async () => {
      while ((await integrator.integrateOnce()) > 0);
      await integrator.publishPending();
    };
    await t.eventStore.append('policy-k', [newEvent('Evaluated', { i: 0 }), newEvent('Evaluated', { i: 1 })], 'any');
    await t.eventStore.append('policy-k', [newEvent('Evaluated', { i: 2 })], 'any');
    await integrate();

    const topic = `test.audit-checkpoints.${randomUUID().slice(0, 8)}`;
    await kafka.ensureTopics([{ name: topic, partitions: 2 }]);
    const reader = await readTopics(kafka, [topic]);
    const distribution = startCheckpointDistribution({
      pool: t.pool,
      kafka,
      topic,
      partitions: 2,
      logger: t.logger,
      clock,
      idleMs: 50,
    });
    try {
      await reader.waitFor(atLeast(topic, 1));
      // One signed while the distribution runs arrives after the first.
      await t.eventStore.append('policy-k', [newEvent('Evaluated', { i: 3 }), newEvent('Evaluated', { i: 4 })], 'any');
      await t.eventStore.append('policy-j', [newEvent('Evaluated', { i: 5 })], 'any');
      await integrate();
      const messages = await reader.waitFor(atLeast(topic, 2));

      const received = messages.map((message) => ({
        key: message.key,
        headers: IntegrationMessageHeaders.parse(message.headers),
        value: AuditCheckpointMessage.parse(JSON.parse(message.value ?? '')),
      }));
      expect(received.map(({ value }) => value.size)).toEqual([3, 6]);
      for (const { key, headers, value } of received) {
        const opened = openCheckpoint(value.note, [signer.verifier]);
        expect(opened).toMatchObject({ origin: ORIGIN, size: value.size });
        expect(Buffer.from(opened.root).toString('base64')).toBe(value.root);
        expect(key).toBe(ORIGIN);
        expect(headers).toMatchObject({ ce_id: `${ORIGIN}/${value.size}`, ce_type: 'cropcover.CheckpointSigned' });
      }
      // Marked once the broker acknowledged, which may be a moment after the reader got the message.
      await vi.waitFor(async () => {
        const { rows } = await t.pool.query<{ distributed: boolean }>(
          'select distributed_at is not null as distributed from audit_checkpoints order by tree_size',
        );
        expect(rows.map((row) => row.distributed)).toEqual([true, true]);
      });
    } finally {
      await distribution.stop();
      await reader.stop();
    }
  });
});

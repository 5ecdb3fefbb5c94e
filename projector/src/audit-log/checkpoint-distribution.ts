import { type AuditCheckpointMessage, type IntegrationMessageHeaders, prefixedTopics } from '@cropcover/contracts';
import {
  type Clock,
  type Config,
  createPlatformaticClient,
  type KafkaClient,
  type Logger,
  pauseUnlessAborted,
} from '@cropcover/runtime';
import type pg from 'pg';
import { createPublishBackoff, type PublishBackoffOptions } from '../integration-publisher/publish-backoff';
import { replaceableProducer } from '../integration-publisher/replaceable-producer';

// Puts each signed checkpoint on Kafka (`cropcover.audit-checkpoints.v1`, SPEC §7 Audit) once the
// checkpoint sink holds it, in order of size, and marks it distributed only after the broker acknowledged
// it: a crash or an outage sends one again (consumers dedupe on ce_id), never skips one. A loop of its own,
// beside the integrator's: Kafka only distributes, so its outage holds back neither signing, the sink, nor
// the payouts that wait on them.

export interface CheckpointDistributionOptions {
  readonly pool: pg.Pool;
  readonly kafka: KafkaClient;
  readonly topic: string;
  /** Partitions of the topic if it has to be made. */
  readonly partitions: number;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Pause when nothing was waiting. */
  readonly idleMs?: number;
  /** Most checkpoints in one acknowledged send. */
  readonly batchSize?: number;
  readonly backoff?: PublishBackoffOptions;
}

interface PendingCheckpoint {
  readonly tree_size: string;
  readonly root: Buffer;
  readonly note: string;
  readonly signed_at: Date;
}

/** The checkpoint's message: its origin is the note's first line, as the note itself says it. */
export const checkpointMessage = ({ tree_size, root, note, signed_at }: PendingCheckpoint) => {
  const origin = note.slice(0, note.indexOf('\n'));
  const value: AuditCheckpointMessage = {
    origin,
    size: Number(tree_size),
    root: root.toString('base64'),
    note,
    signed_at: signed_at.toISOString(),
  };
  const headers: IntegrationMessageHeaders = {
    ce_id: `${origin}/${tree_size}`,
    ce_type: 'cropcover.CheckpointSigned',
    ce_source: `urn:cropcover:audit:${origin}`,
    ce_time: value.signed_at,
    ce_specversion: '1.0',
    'content-type': 'application/json',
  };
  return { key: origin, value: JSON.stringify(value), headers };
};

export const startCheckpointDistribution = ({
  pool,
  kafka,
  topic,
  partitions,
  logger,
  clock,
  idleMs = 500,
  batchSize = 100,
  backoff: backoffOptions = { initialMs: 1_000, maxMs: 30_000 },
}: CheckpointDistributionOptions): { stop(): Promise<void> } => {
  const stopping = new AbortController();
  const backoff = createPublishBackoff(backoffOptions);
  const producer = replaceableProducer(kafka, [{ name: topic, partitions }], logger);

  /** Sends the next checkpoints waiting; answers how many. */
  const distributeOnce = async (): Promise<number> => {
    const { rows } = await pool.query<PendingCheckpoint>(
      `select tree_size, root, note, signed_at from audit_checkpoints
       where published_at is not null and distributed_at is null order by tree_size limit $1`,
      [batchSize],
    );
    if (rows.length === 0) return 0;
    await (await producer.connected()).send([{ topic, messages: rows.map(checkpointMessage) }]);
    await pool.query('update audit_checkpoints set distributed_at = $2 where tree_size = any($1::bigint[])', [
      rows.map((row) => row.tree_size),
      clock.now(),
    ]);
    return rows.length;
  };

  const loop = (async () => {
    while (!stopping.signal.aborted) {
      await backoff.beforeAttempt();
      if (stopping.signal.aborted) break;
      try {
        const sent = await distributeOnce();
        backoff.succeeded();
        if (sent === 0) await pauseUnlessAborted(idleMs, stopping.signal);
      } catch (error) {
        logger.warn({ err: error }, 'distributing audit checkpoints to Kafka failed; retrying');
        backoff.failed();
        await producer.drop();
      }
    }
  })();
  logger.info({ topic }, 'audit checkpoints distributed to Kafka');

  return {
    stop: async () => {
      stopping.abort();
      backoff.interrupt();
      await loop;
      await producer.drop();
    },
  };
};

/** The distribution when KAFKA_BROKERS is set, else undefined: without Kafka the sink alone holds them. */
export const startConfiguredCheckpointDistribution = (
  config: Config,
  deps: Pick<CheckpointDistributionOptions, 'pool' | 'logger' | 'clock'>,
): { stop(): Promise<void> } | undefined =>
  config.kafkaBrokers.length === 0
    ? undefined
    : startCheckpointDistribution({
        ...deps,
        kafka: createPlatformaticClient({
          brokers: config.kafkaBrokers,
          clientId: 'cropcover-audit-checkpoints',
          logger: deps.logger,
        }),
        topic: prefixedTopics(config.kafkaTopicPrefix).auditCheckpoints,
        partitions: config.kafkaTopicPartitions,
      });

import { INTEGRATION_TOPICS, type IntegrationTopicNames } from '@cropcover/contracts';
import type { AllStreamStart, EventStore, GlobalPosition, RecordedEvent } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { readCheckpoint, saveCheckpoint } from '@cropcover/read-store';
import type { KafkaClient, Logger } from '@cropcover/runtime';
import type { Kysely } from 'kysely';
import type { Registry } from 'prom-client';
import { groupByTopic, routeToTopics } from './integration-messages';
import { createPublishBackoff, type PublishBackoffOptions } from './publish-backoff';
import { registerPublishLagMetrics } from './publish-lag-metrics';
import { replaceableProducer } from './replaceable-producer';
import { traceSends } from './send-spans';

// Publishes the log to Kafka (SPEC §7) from a checkpoint of its own in projection_checkpoints. The
// checkpoint moves only after the broker acknowledged a whole batch, so a crash or an outage repeats
// messages (consumers dedupe on ce_id) and never loses one.

export const INTEGRATION_PUBLISHER_CHECKPOINT = 'kafka-publisher';

export interface IntegrationPublisherOptions {
  readonly eventStore: EventStore;
  readonly db: Kysely<ReadModels>;
  readonly kafka: KafkaClient;
  /** Partitions of a topic the publisher has to create. */
  readonly partitions: number;
  readonly logger: Logger;
  /** Where the publish lag gauges go; without one the publisher exposes no metrics. */
  readonly metricsRegistry?: Registry;
  /** Tests publish to topics of their own; production uses INTEGRATION_TOPICS. */
  readonly topics?: IntegrationTopicNames;
  readonly checkpointName?: string;
  /** Most events published in one acknowledged batch. */
  readonly batchSize?: number;
  readonly backoff?: PublishBackoffOptions;
}

export interface IntegrationPublisher {
  /** The position of the last event the broker acknowledged. */
  checkpoint(): GlobalPosition | AllStreamStart;
  /** Finishes or abandons the batch in hand (an abandoned one is published again on the next start). */
  stop(): Promise<void>;
}

const DEFAULT_BATCH_SIZE = 500;
const DEFAULT_BACKOFF: PublishBackoffOptions = { initialMs: 1_000, maxMs: 30_000 };

class PublisherStopping extends Error {
  constructor() {
    super('integration publisher stopping');
  }
}

export const startIntegrationPublisher = async ({
  eventStore,
  db,
  kafka,
  partitions,
  logger,
  metricsRegistry,
  topics = INTEGRATION_TOPICS,
  checkpointName = INTEGRATION_PUBLISHER_CHECKPOINT,
  batchSize = DEFAULT_BATCH_SIZE,
  backoff: backoffOptions = DEFAULT_BACKOFF,
}: IntegrationPublisherOptions): Promise<IntegrationPublisher> => {
  let checkpoint = await readCheckpoint(db, checkpointName);
  let stopping = false;
  const producer = replaceableProducer(
    kafka,
    Object.values(topics).map((name) => ({ name, partitions })),
    logger,
  );
  const backoff = createPublishBackoff(backoffOptions);

  const publish = async (batch: readonly RecordedEvent[]): Promise<void> => {
    const last = batch.at(-1);
    if (!last) return;
    await backoff.beforeAttempt();
    if (stopping) throw new PublisherStopping();
    const sends = traceSends(batch.flatMap((event) => routeToTopics(event, topics)));
    const byTopic = groupByTopic(sends.messages);
    try {
      if (byTopic.size > 0)
        await (await producer.connected()).send([...byTopic].map(([topic, messages]) => ({ topic, messages })));
    } catch (error) {
      sends.end(error);
      backoff.failed();
      await producer.drop();
      throw error;
    }
    sends.end();
    backoff.succeeded();
    await db.transaction().execute((trx) => saveCheckpoint(trx, checkpointName, last.position));
    checkpoint = last.position;
  };

  const subscription = eventStore.subscribeToAll(checkpoint, publish, {
    batchSize,
    onError: (error) => {
      if (!(error instanceof PublisherStopping))
        logger.warn({ err: error }, 'publishing to Kafka failed; retrying the batch from the checkpoint');
    },
  });
  const unregisterMetrics = metricsRegistry
    ? registerPublishLagMetrics({ registry: metricsRegistry, eventStore, checkpoint: () => checkpoint, logger })
    : undefined;
  logger.info({ topics, partitions }, 'Kafka integration publisher started');

  return {
    checkpoint: () => checkpoint,
    stop: async () => {
      stopping = true;
      backoff.interrupt();
      await subscription.stop();
      await producer.drop();
      unregisterMetrics?.();
      logger.info('Kafka integration publisher stopped');
    },
  };
};

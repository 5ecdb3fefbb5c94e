import type { KafkaClient, KafkaProducer, Logger, TopicSpec } from '@cropcover/runtime';

/** A Kafka producer connected, its topics made, on first use, so the service starts while Kafka is down;
 *  and replaced after a failure: a fresh connection is the surest way back once the broker returns, and a
 *  new producer id cannot trip over sequence numbers the broker lost. */
export interface ReplaceableProducer {
  /** The producer, connected first if there is none. */
  connected(): Promise<KafkaProducer>;
  /** Lets the producer go (after a failure, or on stop); the next `connected` makes a new one. */
  drop(): Promise<void>;
}

export const replaceableProducer = (
  kafka: KafkaClient,
  topics: readonly TopicSpec[],
  logger: Logger,
): ReplaceableProducer => {
  let producer: KafkaProducer | undefined;
  return {
    connected: async () => {
      if (producer) return producer;
      await kafka.ensureTopics(topics);
      producer = await kafka.connectProducer();
      return producer;
    },
    drop: async () => {
      const failed = producer;
      producer = undefined;
      await failed
        ?.disconnect()
        .catch((error: unknown) => logger.debug({ err: error }, 'Kafka producer disconnect failed'));
    },
  };
};

import { prefixedTopics } from '@cropcover/contracts';
import { type Config, createPlatformaticClient, type Logger } from '@cropcover/runtime';
import { BREACH_CONSUMER_GROUP, type KafkaBreachSource } from './kafka-breach-consumer';

/** Kafka when KAFKA_BROKERS is set, else undefined: the dispatcher then takes breaches from the log. */
export const configuredBreachSource = (config: Config, logger: Logger): KafkaBreachSource | undefined =>
  config.kafkaBrokers.length === 0
    ? undefined
    : {
        client: createPlatformaticClient({
          brokers: config.kafkaBrokers,
          clientId: 'cropcover-webhook-dispatcher',
          logger,
        }),
        partitions: config.kafkaTopicPartitions,
        topic: prefixedTopics(config.kafkaTopicPrefix).triggerBreaches,
        groupId: `${config.kafkaTopicPrefix}${BREACH_CONSUMER_GROUP}`,
        groupInstanceId: config.kafkaGroupInstanceId,
      };

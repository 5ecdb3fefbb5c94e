import { prefixedTopics } from '@cropcover/contracts';
import type { EventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import type { Config, Logger } from '@cropcover/runtime';
import { createPlatformaticClient } from '@cropcover/runtime';
import type { Kysely } from 'kysely';
import type { Registry } from 'prom-client';
import { type IntegrationPublisher, startIntegrationPublisher } from './integration-publisher';

export interface ConfiguredPublisherDeps {
  readonly eventStore: EventStore;
  readonly db: Kysely<ReadModels>;
  readonly logger: Logger;
  readonly metricsRegistry: Registry;
}

/** The Kafka publisher when KAFKA_BROKERS is set, else undefined: the quick start runs without Kafka. */
export const startConfiguredIntegrationPublisher = async (
  config: Config,
  deps: ConfiguredPublisherDeps,
): Promise<IntegrationPublisher | undefined> =>
  config.kafkaBrokers.length === 0
    ? undefined
    : startIntegrationPublisher({
        ...deps,
        kafka: createPlatformaticClient({
          brokers: config.kafkaBrokers,
          clientId: 'cropcover-projector',
          logger: deps.logger,
        }),
        partitions: config.kafkaTopicPartitions,
        topics: prefixedTopics(config.kafkaTopicPrefix),
      });

import type { Config } from '../config';
import type { ReadinessCheck } from '../http/readiness';
import type { Logger } from '../logger';
import type { KafkaClient } from './kafka-client';
import { createPlatformaticClient } from './platformatic-client';

export const kafkaReadinessCheck = (kafka: KafkaClient): ReadinessCheck => ({
  name: 'kafka',
  check: () => kafka.describeCluster(),
});

/** `/readyz` checks Kafka only when KAFKA_BROKERS is set (SPEC §8). */
export const configuredKafkaReadiness = (config: Config, logger: Logger): ReadinessCheck[] =>
  config.kafkaBrokers.length === 0
    ? []
    : [
        kafkaReadinessCheck(
          createPlatformaticClient({ brokers: config.kafkaBrokers, clientId: 'cropcover-readiness', logger }),
        ),
      ];

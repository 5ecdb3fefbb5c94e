import { expect, it } from 'vitest';
import { createLogger } from '../logger';
import { describeWithKafka, testBrokers } from '../testing/kafka-test-broker';
import { kafkaReadinessCheck } from './kafka-readiness';
import { createPlatformaticClient } from './platformatic-client';

const logger = createLogger({ level: 'silent' });

describeWithKafka('Kafka readiness check', () => {
  it('passes while the broker describes the cluster', async () => {
    const check = kafkaReadinessCheck(
      createPlatformaticClient({ brokers: testBrokers, clientId: 'readiness-test', logger }),
    );
    expect(check.name).toBe('kafka');
    await expect(check.check()).resolves.toBeUndefined();
  });

  it('fails at once, without retrying, when no broker answers', async () => {
    const nobody = createPlatformaticClient({ brokers: ['127.0.0.1:1'], clientId: 'readiness-test', logger });
    const started = Date.now();
    await expect(kafkaReadinessCheck(nobody).check()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

export { describeNeeding } from './describe-needing';
// Test-only helpers other packages' suites use; nothing outside a test imports this folder.

export { describeWithKafka, kafkaBrokerScript, testBrokers } from './kafka-test-broker';
export { type ReadableSpan, recordSpansInMemory, type SpansInMemory } from './spans-in-memory';
export { startTestApp, type TestApp } from './test-app';
export { createTestDatabase, type TestDatabase, testServerUrl } from './test-database';

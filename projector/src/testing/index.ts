// What other packages' tests (and the fault tests in test/) use to seed the read models through the real log and projector.

export { describeWithKafka, kafkaBrokerScript, testBrokers } from '@cropcover/runtime/testing';
export { type PolicyStory, type PolicyStoryStart, policyStory } from './policy-story';
export { openProjectorTestDatabase, type ProjectorTestDatabase } from './projector-test-database';
export { dumpReadModels } from './read-model-dump';
export { combinedExpectation, registryWorkload } from './registry-workload';
export { seededRandom } from './seeded-random';
export { atLeast, readTopics, type TopicReader } from './topic-reader';
export { readWholeLog, waitUntilVisible } from './visible-log';

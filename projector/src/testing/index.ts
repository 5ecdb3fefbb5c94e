// What other packages' tests use to seed the read models through the real log and projector.
export { type PolicyStory, type PolicyStoryStart, policyStory, policyStream } from './policy-story';
export { openProjectorTestDatabase, type ProjectorTestDatabase } from './projector-test-database';
export { readWholeLog, waitUntilVisible } from './visible-log';

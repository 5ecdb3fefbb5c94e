export type { CommandApiDeps } from './command-api-deps';
export { createCommandRouter } from './command-router';
export type { ReadModelConsistency, ReadYourWrites } from './read-your-writes';
export { refusalToProblem } from './refusal-to-problem';

export { COMMAND_BODY_LIMITS, commandFileBodyPaths, commandTextBodyRoutes } from './body-limits';
export type { CommandApiDeps } from './command-api-deps';
export { createCommandRouter } from './command-router';
export { commandRoutes } from './command-routes';
export type { ReadYourWrites } from './read-your-writes';
export { refusalToProblem } from './refusal-to-problem';

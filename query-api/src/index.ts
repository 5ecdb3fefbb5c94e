export type { QueryApiDeps } from './query-api-deps';
export { createQueryRouter } from './query-router';

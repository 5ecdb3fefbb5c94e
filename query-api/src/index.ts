export { consoleRouter } from './console/console-router';
export { type AuditStep, replayPolicyAudit } from './insurance/audit-replay';
export type { QueryApiDeps } from './query-api-deps';
export { createQueryRouter } from './query-router';
export { queryRoutes } from './query-routes';

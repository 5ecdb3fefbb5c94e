export { createWakeableIdle, pauseUnlessAborted, type WakeableIdle } from './abortable-pause';
export { type Clock, type SettableClock, settableClock, systemClock } from './clock';
export {
  type AppEnv,
  type AuthConfig,
  type Config,
  ConfigError,
  type ConfigVariable,
  configVariables,
  type LogLevel,
  loadConfig,
  MIN_PRODUCTION_SECRET_LENGTH,
  type PersonalDataKey,
  SANDBOX_AUDIT_SIGNING_KEY,
  SANDBOX_JWT_SECRET,
  SANDBOX_PERSONAL_DATA_KEY,
  type TraceSampler,
  type TracingConfig,
} from './config';
export { createKysely, createPool, databaseReadinessCheck, endPool, type PoolOptions } from './database';
export { type DatabaseClock, startDatabaseClock } from './database-clock';
export { type DevTokenClaims, signDevToken } from './dev-token';
export {
  type DatabaseServer,
  type EmbeddedPostgresOptions,
  resolveDatabaseUrl,
  startEmbeddedPostgres,
} from './embedded-postgres';
export { createHttpApp, finalizeHttpApp, type HttpAppOptions } from './http/app';
export { createAuthenticator } from './http/auth';
export { CONSISTENCY_STATUS_HEADER, countingWaitTimeouts, setConsistencyStatus } from './http/consistency-status';
export { JSON_BODY_LIMIT, jsonBody } from './http/json-body';
export { type OpsServer, startOpsServer } from './http/ops-server';
export {
  isAdmin,
  type Principal,
  principalOf,
  requireRolesInOrganization,
} from './http/principal';
export { type FieldError, ProblemError, type ProblemInit } from './http/problem';
export { notFoundHandler, PROBLEM_CONTENT_TYPE, problemHandler, problemType } from './http/problem-handler';
export { createRateLimiter, type RateLimiter } from './http/rate-limit';
export { type ReadinessCheck, readinessHandler } from './http/readiness';
export { type RequestContext, requestContext, requestContextOf } from './http/request-context';
export { UNDECLARED_PROBLEM } from './http/routes/answered-route';
export {
  type DeclaredRoute,
  declareRoute,
  type Refuse,
  type Route,
  type RouteCall,
  type RouteHandler,
  type RouteOptions,
  type SuccessBody,
  tagged,
} from './http/routes/route';
export { expressPath, routerOf } from './http/routes/router-of';
export { type ServingHttp, serveHttp } from './http/serve';
export { parseBody, parseInput, parseParams, parseQuery } from './http/validation';
export type * from './kafka/kafka-client';
export { configuredKafkaReadiness, kafkaReadinessCheck } from './kafka/kafka-readiness';
export { createPlatformaticClient, type PlatformaticClientOptions } from './kafka/platformatic-client';
export { createLogger, type Logger, type LoggerOptions, maskUrlPasswords } from './logger';
export { aggregateMetrics, createMetrics, type Metrics, type ProcessMetrics } from './metrics';
export { loadConfigOrExit, type StopOnSignalsOptions, stopOnSignals } from './process-lifecycle';
export {
  contextOfCarrier,
  inSpan,
  linkToCarrier,
  startSpan,
  type TraceCarrier,
  traceCarrierOf,
} from './tracing/spans';
export { startTracing, type Tracing } from './tracing/tracing';

export {
  type ConfiguredPublisherDeps,
  startConfiguredIntegrationPublisher,
} from './integration-publisher/configured-publisher';
export {
  INTEGRATION_PUBLISHER_CHECKPOINT,
  type IntegrationPublisher,
  type IntegrationPublisherOptions,
  startIntegrationPublisher,
} from './integration-publisher/integration-publisher';
export { PUBLISH_LAG_EVENTS_METRIC, PUBLISH_LAG_SECONDS_METRIC } from './integration-publisher/publish-lag-metrics';
export type * from './kafka/kafka-client';
export { configuredKafkaReadiness, kafkaReadinessCheck } from './kafka/kafka-readiness';
export { createKafkajsClient, type KafkajsClientOptions } from './kafka/kafkajs-client';
export { LAG_EVENTS_METRIC, LAG_SECONDS_METRIC } from './lag-metrics';
export { migrateReadModels } from './migrations/migrate-read-models';
export { type OpsServer, startOpsServer } from './ops-server';
export { PROJECTIONS_ADVANCED_CHANNEL, type ProgressSource, type ProjectionProgress } from './progress-channel';
export type { Projection } from './projection';
export { farmersProjection } from './projections/farmers-projection';
export { farmsProjection } from './projections/farms-projection';
export { policiesProjection } from './projections/policies-projection';
export { webhooksProjection } from './projections/webhooks-projection';
export { type Projector, type ProjectorOptions, startProjector } from './projector';
export { readModelProjections } from './read-model-projections';
export type * from './read-models/calendar-date-column';
export { calendarDateOf } from './read-models/calendar-date-column';
export type * from './read-models/idempotency-tables';
export { loadReadingHistory, type ReadingHistoryQuery } from './read-models/index-readings';
export type * from './read-models/index-readings-tables';
export type * from './read-models/policy-tables';
export type * from './read-models/schema';
export type * from './read-models/webhook-tables';
export {
  createReadModelConsistency,
  type ReadModelConsistency,
  type ReadModelConsistencyOptions,
} from './read-your-writes';
export { type RebuildOptions, type RebuildResult, rebuildProjections } from './rebuild';

// The audit integrator: the tree over the log, signed checkpoints, their sink and their Kafka topic
export {
  type AuditIntegrator,
  type AuditIntegratorOptions,
  createAuditIntegrator,
  SinkRefusal,
  startAuditIntegrator,
} from './audit-log/audit-integrator';
export {
  type CheckpointDistributionOptions,
  startCheckpointDistribution,
  startConfiguredCheckpointDistribution,
} from './audit-log/checkpoint-distribution';
export {
  type CheckpointSink,
  claimCheckpointSinkDirectory,
  directoryCheckpointSink,
} from './audit-log/checkpoint-sink';
export {
  type CheckpointSinkHealth,
  checkpointSinkHealth,
  SINK_FAILING_METRIC,
  SINK_FAILURES_METRIC,
} from './audit-log/checkpoint-sink-health';
export { type AuditLogOptions, checkpointOrigin, startAuditLog } from './audit-log/log-sink-start';
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
export { LAG_EVENTS_METRIC, LAG_SECONDS_METRIC } from './lag-metrics';
export type { Projection } from './projection';
export { farmersProjection } from './projections/farmers-projection';
export { farmsProjection } from './projections/farms-projection';
export { indexSourcesProjection } from './projections/index-sources-projection';
export { policiesProjection } from './projections/policies-projection';
export { webhooksProjection } from './projections/webhooks-projection';
export { type Projector, type ProjectorOptions, startProjector } from './projector';
export { connectProjector, type ProjectorConnections } from './projector-connections';
export { readModelProjections } from './read-model-projections';
export { type RebuildOptions, type RebuildResult, rebuildProjections } from './rebuild';

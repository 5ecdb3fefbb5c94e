export type * from './calendar-date-column';
export { calendarDateOf } from './calendar-date-column';
export type { ChannelListener, ChannelWatcher } from './channel-listener';
export {
  CHECKPOINT_PUBLISHED_CHANNEL,
  type ListenToCheckpointPublications,
  listenToCheckpointPublications,
  MARK_CHECKPOINT_PUBLISHED,
  PUBLICATION_LISTENER_APPLICATION_NAME,
} from './checkpoint-publications';
export { positionFromColumns, readCheckpoint, saveCheckpoint, saveCheckpoints } from './checkpoints';
export type * from './columns';
export {
  ERASURE_LISTENER_APPLICATION_NAME,
  FARMER_KEY_ERASED_CHANNEL,
  type FarmerKeyErasureListener,
  type FarmerKeyErasureWatcher,
  listenToFarmerKeyErasures,
  notifyFarmerKeyErased,
} from './farmer-key-erasures';
export { migrateReadModels } from './migrations/migrate-read-models';
export {
  decodeProgress,
  encodeProgress,
  notifyProgress,
  PROJECTIONS_ADVANCED_CHANNEL,
  type ProgressSource,
  type ProjectionProgress,
} from './progress-channel';
export { type ExportedBundle, exportAuditBundle } from './queries/audit-bundle';
export { loadSigningKeys, type SigningKeyRecord } from './queries/audit-keys';
export { type ShownLeaf, shownLeaves } from './queries/audit-leaf-inputs';
export { checkpointSinkReadinessCheck, loadAuditLogId } from './queries/audit-log-identity';
export {
  checkpointOnTheWire,
  type KeptLeaf,
  loadCheckpoint,
  loadInclusionProofs,
  loadLeafIndexes,
  loadLeafPlaces,
  loadNewestPublishedCheckpoint,
  loadRangeHashes,
  loadTreeSize,
  type StoredCheckpoint,
} from './queries/audit-tree';
export {
  type ClimatologyJobRecord,
  type ClimatologyRequestRecord,
  type ClimatologyVersionQuery,
  type ComputedClimatology,
  climatologyJobs,
  climatologyOwner,
  finishClimatology,
  loadClimatology,
  loadClimatologyJob,
  loadClimatologyRequest,
  recordClimatologyRequest,
  sourceHasReadingsIn,
  sourceLocationsAsOf,
} from './queries/climatologies';
export { indexFileIngestionView, loadIndexFileIngestion } from './queries/index-file-ingestions';
export {
  claimLeasedJob,
  failLeasedRun,
  type JobLease,
  type LeasedJobTables,
  renewJobLease,
  succeedLeasedRun,
} from './queries/leased-jobs';
export {
  type MonitoredPerilColumns,
  monitoredPerilsFromColumns,
  monitoredPerilsToColumns,
} from './queries/monitored-days';
export {
  type BacktestJobRecord,
  type BacktestRequestRecord,
  finishBacktest,
  loadBacktestJob,
  loadBacktestRequest,
  portfolioBacktestJobs,
  recordBacktestRequest,
} from './queries/portfolio-backtests';
export {
  finishProductBacktest,
  loadProductBacktestJob,
  loadProductBacktestRequest,
  type ProductBacktestJobRecord,
  type ProductBacktestOutcome,
  type ProductBacktestRequestRecord,
  productBacktestJobs,
  recordProductBacktestRequest,
} from './queries/product-backtests';
export { type ExposurePage, type ExposureRow, loadExposure } from './queries/programme-exposure';
export { loadPeriodFigures } from './queries/programme-results';
export { listProgrammes, loadProgramme, type ProgrammeRecord, type ProgrammeScope } from './queries/programmes';
export { loadReadingHistory } from './queries/reading-history';
export {
  loadReadingVersions,
  loadSeriesColumns,
  type SeriesColumns,
  type SeriesKey,
} from './queries/series-columns';
export {
  loadSeriesReadings,
  loadSeriesReadingsBefore,
  type SeriesQuery,
  type SeriesRange,
} from './queries/series-readings';
export type * from './read-models';
export {
  createReadModelConsistency,
  LISTENER_APPLICATION_NAME,
  type ReadModelConsistency,
  type ReadModelConsistencyOptions,
} from './read-your-writes';
export type * from './schema/audit-integrator/audit-log-tables';
export type * from './schema/command-api/climatology-request-tables';
export type * from './schema/command-api/farmer-key-tables';
export type * from './schema/command-api/idempotency-tables';
export type * from './schema/command-api/index-readings-tables';
export type * from './schema/command-api/portfolio-backtest-request-tables';
export type * from './schema/command-api/product-backtest-request-tables';
export type * from './schema/command-api/webhook-secret-tables';
export type * from './schema/monitor/climatology-tables';
export type * from './schema/monitor/policy-monitor-tables';
export type * from './schema/monitor/portfolio-backtest-run-tables';
export type * from './schema/monitor/product-backtest-run-tables';
export type * from './schema/projector/checkpoint-tables';
export type * from './schema/projector/index-source-tables';
export type * from './schema/projector/policy-tables';
export type * from './schema/projector/product-tables';
export type * from './schema/projector/programme-tables';
export type * from './schema/projector/registry-tables';
export type * from './schema/projector/reinsurance-tables';
export type * from './schema/projector/unit-area-tables';
export type * from './schema/projector/webhook-tables';
export type * from './schema/webhook-dispatcher/webhook-delivery-tables';

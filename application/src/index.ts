export { actorOf } from './actor-of';
export { checkEvaluationDigests, type DigestCheck } from './audit/evaluation-digests';
export { type MonitoredDayReplay, replayMonitoredDay } from './audit/replay-monitored-day';
// Climatologies: a requested version computed from stored readings (INDEX-DATA §3)
export { climatologyDates, computeClimatology } from './climatologies/compute-climatology';
export type { CommandContext } from './command-context';
export type { CommandDeps } from './command-deps';
export { type DecodedEvent, decodeEvent, isOneOf } from './decode-event';
export { type DomainEvent, toNewEvent } from './event-envelope';
export {
  type CommandOutcome,
  handleCommand,
  type LoadedStream,
  loadAggregate,
  loadStream,
  type StreamSnapshot,
} from './handle-command';
export { sourceForFiles, unitAreasOfSource } from './index-files/file-source';
export { type IndexFileRequest, type IngestionOutcome, ingestIndexFile } from './index-files/ingest-index-file';
export { resumeInterruptedIngestions, startIngestionResumer } from './index-files/resume-ingestions';
export { indexFilePath, type StoredIndexFile, storeIndexFile } from './index-files/stored-index-files';
export { FUTURE_DATE_MESSAGE, isDatedAfter, refuseFutureReadings } from './index-readings/future-readings';
export {
  CSV_FIELD_HEADER,
  CSV_SOURCE_HEADER,
  type CsvImporter,
  type CsvImportOptions,
  type CsvImportOutcome,
  importReadingsCsv,
} from './index-readings/import-readings-csv';
export { type RecordedReadings, recordIndexReadings, type SourceReading } from './index-readings/record-index-readings';
export { sourceReadingsOf } from './index-readings/source-readings';
export { setAreaOfInterest } from './locations-of-interest/area-of-interest';
export {
  type HistoryBackfills,
  historyBackfills,
} from './locations-of-interest/history-backfills';
export { eraseFarmerData, type FarmerErasureDeps } from './personal-data/erasure/erase-farmer-data';
export { cachedFarmerKeys, type ListenToErasures } from './personal-data/farmer-key-cache';
export { type FarmerKeys, farmerKeysIn } from './personal-data/farmer-keys';
export { PERSONAL_FIELDS } from './personal-data/personal-fields';
export { openEvents, sealEvents, withSealedPersonalData } from './personal-data/sealing-event-store';
export { backtestEvaluation } from './policies/backtest-evaluation';
export { type DailyRound, type LiveEvaluation, liveEvaluation, type RoundEvaluation } from './policies/live-evaluation';
export { loadPolicyDataSources, type PolicyDataQuery } from './policies/policy-data-sources';
export { DEFAULT_MAX_PRICED_QUOTES, pricedQuotes, type QuoteInputs } from './policies/priced-quotes';
export { type BacktestProgress, computePortfolioBacktest } from './portfolio/portfolio-backtest';
export { computeProductBacktest } from './products/product-backtest';
export { type IssuedInProgramme, issueInProgramme } from './programmes/issue-in-programme';
export {
  DEFAULT_MAX_CACHED_READINGS,
  type ReadingHistoryCache,
  type ReadingVersions,
  readingHistoryCache,
} from './readings/cached-reading-history';
export { readingHistoryFrom } from './readings/reading-history';
export { sharedReadingHistory } from './readings/shared-reading-history';
export { newWebhookSecret, storeWebhookSecret, webhookSigningKey } from './webhooks/webhook-secret';

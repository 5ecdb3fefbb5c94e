export { actorOf } from './actor-of';
export type { CommandContext } from './command-context';
export type { CommandDeps } from './command-deps';
export { type DecodedEvent, decodeEvent, isOneOf } from './decode-event';
export { type DomainEvent, toNewEvent } from './event-envelope';
export { type CommandOutcome, handleCommand, type LoadedStream, loadAggregate, loadStream } from './handle-command';
export { FUTURE_DATE_MESSAGE, isDatedAfter, refuseFutureReadings } from './index-readings/future-readings';
export {
  CSV_HEADER,
  type CsvImportOptions,
  type CsvImportOutcome,
  importReadingsCsv,
} from './index-readings/import-readings-csv';
export { type RecordedReadings, recordIndexReadings } from './index-readings/record-index-readings';
export { backtestEvaluation } from './policies/backtest-evaluation';
export { type LiveEvaluation, liveEvaluation } from './policies/live-evaluation';
export { loadPricingHistory, type PricingHistoryQuery } from './policies/pricing-history';
export { readingHistoryFrom } from './readings/reading-history';
export { newWebhookSecret, storeWebhookSecret, webhookSigningKey } from './webhooks/webhook-secret';

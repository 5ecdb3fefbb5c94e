export { startClimatologyRunner } from './climatologies/climatology-runner';
export type { LeasedJobRunner, LeasedJobRunnerOptions } from './leased-jobs/leased-job-runner';
export { type ErasedFarmerSnapshots, startErasedFarmerSnapshots } from './monitor/erased-farmer-snapshots';
export {
  DEFAULT_MONITOR_INTERVAL_MS,
  type PolicyMonitor,
  type PolicyMonitorOptions,
  startPolicyMonitor,
} from './monitor/policy-monitor';
export {
  type PortfolioBacktestRunner,
  type PortfolioBacktestRunnerOptions,
  startPortfolioBacktestRunner,
} from './portfolio-backtests/portfolio-backtest-runner';
export { startProductBacktestRunner } from './product-backtests/product-backtest-runner';
export {
  type ProgrammeBookKeeper,
  startProgrammeBookKeeper,
} from './programme-book/start-programme-book-keeper';
export { configuredBreachSource } from './webhook-dispatcher/configured-breach-source';
export { BREACH_CONSUMER_GROUP, type KafkaBreachSource } from './webhook-dispatcher/kafka-breach-consumer';
export {
  startWebhookDispatcher,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from './webhook-dispatcher/webhook-dispatcher';

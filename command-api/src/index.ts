export { COMMAND_BODY_LIMITS } from './body-limits';
export type { CommandApiDeps } from './command-api-deps';
export { createCommandRouter } from './command-router';
export {
  DEFAULT_MONITOR_INTERVAL_MS,
  type PolicyMonitor,
  type PolicyMonitorOptions,
  startPolicyMonitor,
} from './insurance/monitor/policy-monitor';
export { configuredBreachSource } from './insurance/webhook-dispatcher/configured-breach-source';
export {
  BREACH_CONSUMER_GROUP,
  type KafkaBreachSource,
} from './insurance/webhook-dispatcher/kafka-breach-consumer';
export {
  startWebhookDispatcher,
  type WebhookDispatcher,
  type WebhookDispatcherOptions,
} from './insurance/webhook-dispatcher/webhook-dispatcher';
export type { ReadModelConsistency, ReadYourWrites } from './read-your-writes';
export { refusalToProblem } from './refusal-to-problem';

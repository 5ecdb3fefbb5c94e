import { createEventStore, migrateEventStore } from '@cropcover/eventstore';
import { configuredKafkaReadiness, migrateReadModels, type ReadModels, startOpsServer } from '@cropcover/projector';
import {
  createKysely,
  createLogger,
  createPool,
  databaseReadinessCheck,
  loadConfigOrExit,
  stopOnSignals,
  systemClock,
} from '@cropcover/runtime';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { configuredBreachSource } from './insurance/webhook-dispatcher/configured-breach-source';
import { startWebhookDispatcher } from './insurance/webhook-dispatcher/webhook-dispatcher';

// The webhook dispatcher as its own process (production topology):
// `npx tsx command-api/src/webhook-dispatcher-main.ts`. Several may run; a delivery is locked while it is
// sent. It serves only /healthz, /readyz and /metrics on PORT.
const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel, name: 'webhook-dispatcher' });
if (!config.databaseUrl) {
  logger.fatal('DATABASE_URL is required when the dispatcher runs on its own: its deliveries live there');
  process.exit(2);
}
const pool = createPool(config.databaseUrl, logger, { applicationName: 'cropcover-webhook-dispatcher' });
if (!config.eventStoreUrl) await migrateEventStore(pool);
const db = createKysely<ReadModels>(pool);
await migrateReadModels(db);
const eventStore = createEventStore({ eventstoreUrl: config.eventStoreUrl, pool });
const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });
const dispatcher = await startWebhookDispatcher({
  eventStore,
  db,
  clock: systemClock,
  logger,
  allowInsecure: config.webhookAllowInsecure,
  retryScale: config.webhookRetryScale,
  metricsRegistry,
  kafka: configuredBreachSource(config, logger),
});
const opsServer = await startOpsServer(metricsRegistry, config.port, [
  databaseReadinessCheck(pool),
  ...configuredKafkaReadiness(config, logger),
]);
logger.info({ port: opsServer.port }, 'webhook dispatcher serving /healthz, /readyz and /metrics');
stopOnSignals(logger, async () => {
  await opsServer.close();
  await dispatcher.stop();
  await eventStore.close();
  await pool.end();
});

import { createEventStore, migrateEventStore } from '@cropcover/eventstore';
import { type ReadModels, startOpsServer } from '@cropcover/projector';
import {
  createKysely,
  createLogger,
  createPool,
  loadConfigOrExit,
  stopOnSignals,
  systemClock,
} from '@cropcover/runtime';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { startPolicyMonitor } from './insurance/monitor/policy-monitor';

// The policy monitor as its own process (production topology): `npx tsx command-api/src/monitor-main.ts`.
// Several may run; each policy is claimed per pass, so none is evaluated twice. It reads the policies
// read model the projector keeps, and serves only /healthz and /metrics on PORT.
const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel, name: 'policy-monitor' });
if (!config.databaseUrl) {
  logger.fatal('DATABASE_URL is required when the monitor runs on its own: it reads the projector’s read models');
  process.exit(2);
}
const pool = createPool(config.databaseUrl, logger, { applicationName: 'cropcover-policy-monitor' });
await migrateEventStore(pool);
const eventStore = createEventStore({ eventstoreUrl: config.eventStoreUrl, pool });
const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });
const monitor = startPolicyMonitor({
  deps: { eventStore, db: createKysely<ReadModels>(pool) },
  clock: systemClock,
  logger,
  metricsRegistry,
});
const opsServer = await startOpsServer(metricsRegistry, config.port);
logger.info({ port: opsServer.port }, 'policy monitor serving /healthz and /metrics');
stopOnSignals(logger, async () => {
  await monitor.stop();
  await opsServer.close();
  await eventStore.close();
  await pool.end();
});

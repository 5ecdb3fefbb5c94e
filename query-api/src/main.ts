import { buildOpenApiDocument } from '@cropcover/contracts';
import { PLATFORM_VERSION } from '@cropcover/domain';
import { createEventStore } from '@cropcover/eventstore';
import {
  createReadModelConsistency,
  migrateReadModels,
  type ReadModels,
  readModelProjections,
} from '@cropcover/projector';
import {
  createHttpApp,
  createKysely,
  createLogger,
  createMetrics,
  createPool,
  databaseReadinessCheck,
  finalizeHttpApp,
  loadConfigOrExit,
  serveHttp,
  stopOnSignals,
  systemClock,
} from '@cropcover/runtime';
import { createQueryRouter } from './query-router';

// The query API as its own process (production topology): the gateway sends it every GET. It reads the
// read models the projector keeps, and the event store only for the audit of a policy's stream (the log
// is the audit record; a copy in the read models would be a second truth).
const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel, name: 'query-api' });
if (!config.databaseUrl) {
  logger.fatal('DATABASE_URL is required when the query API runs on its own: it reads the projector’s read models');
  process.exit(2);
}
const pool = createPool(config.databaseUrl, logger, { applicationName: 'cropcover-query-api' });
const db = createKysely<ReadModels>(pool);
// Every process brings the schema up to date (idempotent, serialised by a lock), so start order does not matter.
await migrateReadModels(db);
const eventStore = createEventStore({ eventstoreUrl: config.eventStoreUrl, pool });
const consistency = createReadModelConsistency({
  pool,
  projectionNames: readModelProjections.map((projection) => projection.name),
  logger,
});
const app = createHttpApp({
  config,
  logger,
  metrics: createMetrics(),
  readiness: [databaseReadinessCheck(pool)],
  openApiDocument: buildOpenApiDocument(PLATFORM_VERSION),
});
app.use(
  createQueryRouter({
    db,
    consistency,
    readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
    eventStore,
    clock: systemClock,
  }),
);
finalizeHttpApp(app);
const http = await serveHttp(app, config.port);
logger.info({ port: http.port }, 'query API listening');
stopOnSignals(logger, async () => {
  await http.close();
  await consistency.close();
  await eventStore.close();
  await db.destroy();
});

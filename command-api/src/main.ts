import { buildOpenApiDocument } from '@cropcover/contracts';
import { PLATFORM_VERSION } from '@cropcover/domain';
import { createEventStore, migrateEventStore } from '@cropcover/eventstore';
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
import { COMMAND_BODY_LIMITS } from './body-limits';
import { createCommandRouter } from './command-router';
import { refusalToProblem } from './refusal-to-problem';

// The command API as its own process (production topology): the gateway sends it every non-GET.
const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel, name: 'command-api' });
if (!config.databaseUrl) {
  logger.fatal(
    'DATABASE_URL is required when the command API runs on its own: it shares the database with the projector',
  );
  process.exit(2);
}
const pool = createPool(config.databaseUrl, logger, { applicationName: 'cropcover-command-api' });
await migrateEventStore(pool);
// Every process brings the schema up to date (idempotent, serialised by a lock), so start order does not matter.
const db = createKysely<ReadModels>(pool);
await migrateReadModels(db);
const eventStore = createEventStore({ eventstoreUrl: config.eventStoreUrl, pool });
const consistency = createReadModelConsistency({
  pool,
  projectionNames: readModelProjections.map((projection) => projection.name),
  logger,
});
const metrics = createMetrics();
const app = createHttpApp({
  config,
  logger,
  metrics,
  readiness: [databaseReadinessCheck(pool)],
  openApiDocument: buildOpenApiDocument(PLATFORM_VERSION),
  largerBodyLimits: COMMAND_BODY_LIMITS,
});
app.use(
  createCommandRouter({
    eventStore,
    clock: systemClock,
    readYourWrites: { consistency, timeoutMs: config.readYourWritesTimeoutMs },
    db,
    environment: config.appEnv,
    webhookAllowInsecure: config.webhookAllowInsecure,
  }),
);
app.use(refusalToProblem);
finalizeHttpApp(app);
const http = await serveHttp(app, config.port);
logger.info({ port: http.port }, 'command API listening');
stopOnSignals(logger, async () => {
  await http.close();
  await consistency.close();
  await eventStore.close();
  await pool.end();
});

import { buildOpenApiDocument } from '@cropcover/contracts';
import { PLATFORM_VERSION } from '@cropcover/domain';
import { createReadModelConsistency, type ReadModels, readModelProjections } from '@cropcover/projector';
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
} from '@cropcover/runtime';
import { createQueryRouter } from './query-router';

// The query API as its own process (production topology): the gateway sends it every GET. It only
// reads the read models the projector keeps; it never touches the event store.
const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel, name: 'query-api' });
if (!config.databaseUrl) {
  logger.fatal('DATABASE_URL is required when the query API runs on its own: it reads the projector’s read models');
  process.exit(2);
}
const pool = createPool(config.databaseUrl, logger, { applicationName: 'cropcover-query-api' });
const db = createKysely<ReadModels>(pool);
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
app.use(createQueryRouter({ db, consistency, readYourWritesTimeoutMs: config.readYourWritesTimeoutMs }));
finalizeHttpApp(app);
const http = await serveHttp(app, config.port);
logger.info({ port: http.port }, 'query API listening');
stopOnSignals(logger, async () => {
  await http.close();
  await consistency.close();
  await db.destroy();
});

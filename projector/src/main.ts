import { ConfigError, createLogger, loadConfigOrExit, stopOnSignals } from '@cropcover/runtime';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { startConfiguredIntegrationPublisher } from './integration-publisher/configured-publisher';
import { configuredKafkaReadiness } from './kafka/kafka-readiness';
import { startOpsServer } from './ops-server';
import { startProjector } from './projector';
import { connectProjector } from './projector-connections';
import { readModelProjections } from './read-model-projections';

// The projector as a process of its own (production topology): `npx tsx projector/src/main.ts`. The
// all-in-one service runs the same projections in-process instead. Two copies started by mistake would
// apply the same batches twice over: harmless, as projections are idempotent, but wasteful.

const config = loadConfigOrExit();
if (!config.databaseUrl) {
  // A second process must not start its own embedded PostgreSQL next to the service's.
  console.error(new ConfigError(['DATABASE_URL: required when the projector runs as its own process']).message);
  process.exit(1);
}
const logger = createLogger({ level: config.logLevel, name: 'projector' });
const connections = await connectProjector(config.databaseUrl, config.eventStoreUrl, logger);

const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });
const projector = await startProjector({ ...connections, projections: readModelProjections, logger, metricsRegistry });
const publisher = await startConfiguredIntegrationPublisher(config, { ...connections, logger, metricsRegistry });
const opsServer = await startOpsServer(metricsRegistry, config.port, configuredKafkaReadiness(config, logger));
logger.info({ port: opsServer.port }, 'projector serving /healthz, /readyz and /metrics');

stopOnSignals(logger, async () => {
  await opsServer.close();
  await projector.stop();
  await publisher?.stop();
  await connections.close();
});

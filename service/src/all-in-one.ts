import {
  COMMAND_BODY_LIMITS,
  configuredBreachSource,
  createCommandRouter,
  refusalToProblem,
  startPolicyMonitor,
  startWebhookDispatcher,
} from '@cropcover/command-api';
import { buildOpenApiDocument } from '@cropcover/contracts';
import { PLATFORM_VERSION } from '@cropcover/domain';
import { createEventStore, migrateEventStore } from '@cropcover/eventstore';
import {
  configuredKafkaReadiness,
  createReadModelConsistency,
  migrateReadModels,
  type ReadModels,
  readModelProjections,
  startConfiguredIntegrationPublisher,
  startProjector,
} from '@cropcover/projector';
import { createQueryRouter } from '@cropcover/query-api';
import {
  type Config,
  createHttpApp,
  createKysely,
  createMetrics,
  createPool,
  databaseReadinessCheck,
  endPool,
  finalizeHttpApp,
  type Logger,
  resolveDatabaseUrl,
  serveHttp,
  systemClock,
} from '@cropcover/runtime';

export interface RunningAllInOne {
  readonly port: number;
  /** Stops accepting, finishes in-flight requests and projection batches, then closes every connection. */
  stop(): Promise<void>;
}

/** Both APIs on one port, the projector in-process, PostgreSQL embedded unless DATABASE_URL is set. */
export const startAllInOne = async (config: Config, logger: Logger): Promise<RunningAllInOne> => {
  const database = await resolveDatabaseUrl(config, logger);
  const pool = createPool(database.url, logger);
  const db = createKysely<ReadModels>(pool);
  await migrateEventStore(pool);
  await migrateReadModels(db);
  const eventStore = createEventStore({ eventstoreUrl: config.eventStoreUrl, pool });
  const metrics = createMetrics();

  const projector = await startProjector({
    eventStore,
    db,
    projections: readModelProjections,
    logger,
    metricsRegistry: metrics.registry,
  });
  const publisher = await startConfiguredIntegrationPublisher(config, {
    eventStore,
    db,
    logger,
    metricsRegistry: metrics.registry,
  });
  const consistency = createReadModelConsistency({
    pool,
    projectionNames: readModelProjections.map((projection) => projection.name),
    logger,
    localProgress: projector,
  });

  const app = createHttpApp({
    config,
    logger,
    metrics,
    readiness: [databaseReadinessCheck(pool), ...configuredKafkaReadiness(config, logger)],
    openApiDocument: buildOpenApiDocument(PLATFORM_VERSION),
    largerBodyLimits: COMMAND_BODY_LIMITS,
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
  const monitor = config.monitorEnabled
    ? startPolicyMonitor({ deps: { eventStore, db }, clock: systemClock, logger, metricsRegistry: metrics.registry })
    : undefined;
  const dispatcher = await startWebhookDispatcher({
    eventStore,
    db,
    clock: systemClock,
    logger,
    allowInsecure: config.webhookAllowInsecure,
    retryScale: config.webhookRetryScale,
    metricsRegistry: metrics.registry,
    kafka: configuredBreachSource(config, logger),
  });
  return {
    port: http.port,
    stop: async () => {
      // The monitor first: the policy in hand still needs the database and the event store.
      await monitor?.stop();
      await dispatcher.stop();
      await http.close();
      await projector.stop();
      await publisher?.stop();
      await consistency.close();
      await eventStore.close();
      await endPool(pool);
      await database.stop();
    },
  };
};

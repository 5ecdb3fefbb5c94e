import {
  cachedFarmerKeys,
  farmerKeysIn,
  historyBackfills,
  pricedQuotes,
  readingHistoryCache,
  startIngestionResumer,
  withSealedPersonalData,
} from '@cropcover/application';
import {
  COMMAND_BODY_LIMITS,
  commandFileBodyPaths,
  commandRoutes,
  commandTextBodyRoutes,
  createCommandRouter,
  refusalToProblem,
} from '@cropcover/command-api';
import { buildAsyncApiDocument } from '@cropcover/contracts';
import { PLATFORM_VERSION } from '@cropcover/domain';
import { createEventStore, migrateEventStore, readStoredEvents, readStoredEventsAt } from '@cropcover/eventstore';
import {
  readModelProjections,
  startAuditLog,
  startConfiguredCheckpointDistribution,
  startConfiguredIntegrationPublisher,
  startProjector,
} from '@cropcover/projector';
import { consoleRouter, createQueryRouter } from '@cropcover/query-api';
import {
  checkpointSinkReadinessCheck,
  createReadModelConsistency,
  listenToCheckpointPublications,
  listenToFarmerKeyErasures,
  migrateReadModels,
  type ProgressSource,
  type ReadModels,
} from '@cropcover/read-store';
import {
  type Config,
  ConfigError,
  configuredKafkaReadiness,
  countingWaitTimeouts,
  createHttpApp,
  createKysely,
  createMetrics,
  createPool,
  databaseReadinessCheck,
  endPool,
  finalizeHttpApp,
  type Logger,
  type Metrics,
  resolveDatabaseUrl,
  serveHttp,
  startDatabaseClock,
  startOpsServer,
  startTracing,
} from '@cropcover/runtime';
import { parseSignerKey } from '@cropcover/verifiable-log';
import {
  configuredBreachSource,
  startClimatologyRunner,
  startErasedFarmerSnapshots,
  startPolicyMonitor,
  startPortfolioBacktestRunner,
  startProductBacktestRunner,
  startProgrammeBookKeeper,
  startWebhookDispatcher,
} from '@cropcover/workers';
import { openApiDocument } from './http-api/openapi-document';
import { ROLES, type Role } from './roles';

// The one composition root: every process — the all-in-one service and each process of the production
// topology — is built here from the roles it runs, so all of them migrate the same schema, refuse a bad
// environment the same way and stop in the same order. It lives at the top of the package graph
// because it is the only code that knows every role.

export interface RunningService {
  readonly port: number;
  /** Where this process's metrics are registered. */
  readonly metricsRegistry: Metrics['registry'];
  /** The projector's progress, when this process runs it. */
  readonly projector: ProgressSource | undefined;
  /** Stops accepting, finishes in-flight requests, evaluations and batches, then closes every connection. */
  stop(): Promise<void>;
}

/** How the all-in-one service (all-in-one.ts) splits its roles over processes; other processes need none. */
export interface ServiceOptions {
  /** The projector's progress when it runs in another process of the same service: wakes waiting writes
   *  without a round trip to the database. */
  readonly projectorProgress?: ProgressSource;
  /** Replaces what `/metrics` serves with the metrics of every process of the service. */
  readonly scrapeMetrics?: () => Promise<string>;
  /** False: serve no port at all (its HTTP workers serve the service's port). */
  readonly serveOps?: boolean;
}

/** A process that runs only some roles shares its database with the others, so it must be told where it
 *  is; only the process that runs every role may start an embedded PostgreSQL of its own. */
const databaseRequirement = (roles: readonly Role[], config: Config): void => {
  const runsEverything = ROLES.every((role) => roles.includes(role));
  if (!runsEverything && !config.databaseUrl)
    throw new ConfigError([`DATABASE_URL: required when a process runs only ${roles.join(', ')}`]);
};

export const startService = async (
  roles: readonly Role[],
  config: Config,
  logger: Logger,
  options: ServiceOptions = {},
): Promise<RunningService> => {
  databaseRequirement(roles, config);
  // First, so the spans of everything started below go to the configured collector.
  const tracing = await startTracing(config.tracing);
  const runs = (role: Role): boolean => roles.includes(role);
  const database = await resolveDatabaseUrl(config, logger);
  const applicationName = `cropcover-${roles.join('+')}`;
  // Every process brings the schema up to date (idempotent, serialised by a lock), so start order does not
  // matter. Without EVENTSTORE_URL the log is the `events` table of the same database. Through a pool of
  // its own without the serving pool's wait bound: a migration may rewrite a large table.
  const migrationPool = createPool(database.url, logger, { max: 1, applicationName });
  if (!config.eventStoreUrl) await migrateEventStore(migrationPool);
  const migrating = createKysely<ReadModels>(migrationPool);
  await migrateReadModels(migrating);
  await migrating.destroy();
  const pool = createPool(database.url, logger, { applicationName, waitMs: config.databaseWaitMs });
  const db = createKysely<ReadModels>(pool);
  // Time is the database's in every role (SPEC §10 Clocks): leases, retries and the monitor's day are
  // decided in several processes, and a step of this machine's clock must not move them.
  const clock = await startDatabaseClock(pool, logger);
  // Every reader and writer sees farmers' personal data through the sealing store (SPEC §6 erasure): sealed
  // in the log, open while the farmer's key exists. The Kafka publisher alone reads the log beneath, so the
  // topics carry only the sealed text.
  const log = createEventStore({ eventstoreUrl: config.eventStoreUrl, pool });
  const farmerKeys = cachedFarmerKeys(farmerKeysIn(db, config.personalDataKeys), (watcher) =>
    listenToFarmerKeyErasures(pool, logger, watcher),
  );
  const eventStore = withSealedPersonalData(log, farmerKeys);
  const metrics = createMetrics(options.scrapeMetrics);
  const stops: (() => Promise<void>)[] = [];

  const projector = runs('projector')
    ? await startProjector({
        eventStore,
        db,
        projections: readModelProjections,
        logger,
        metricsRegistry: metrics.registry,
      })
    : undefined;
  const publisher = runs('projector')
    ? await startConfiguredIntegrationPublisher(config, {
        eventStore: log,
        db,
        logger,
        metricsRegistry: metrics.registry,
      })
    : undefined;
  // The tree is built over the PostgreSQL log; on KurrentDB events carry their chain, but no integrator
  // builds the tree over it yet (issue 20).
  const auditSigner = config.auditSigningKey ? parseSignerKey(config.auditSigningKey) : undefined;
  const auditSigns = auditSigner !== undefined && !config.eventStoreUrl;
  const auditIntegrator =
    runs('projector') && auditSigner && auditSigns
      ? await startAuditLog({
          pool,
          db,
          signer: auditSigner,
          configuredSink: config.auditCheckpointDir,
          dataDir: config.dataDir,
          clock,
          logger,
          metricsRegistry: metrics.registry,
        })
      : undefined;
  if (runs('projector') && !auditIntegrator) logger.warn('the audit log is off: no checkpoints are signed');
  const checkpointDistribution = auditIntegrator
    ? startConfiguredCheckpointDistribution(config, { pool, logger, clock })
    : undefined;
  const servesApi = runs('command-api') || runs('query-api');
  const consistency = servesApi
    ? countingWaitTimeouts(
        createReadModelConsistency({
          pool,
          projectionNames: readModelProjections.map((projection) => projection.name),
          logger,
          ...((projector ?? options.projectorProgress)
            ? { localProgress: projector ?? options.projectorProgress }
            : {}),
        }),
        metrics.registry,
      )
    : undefined;

  const readiness = [
    databaseReadinessCheck(pool),
    ...configuredKafkaReadiness(config, logger),
    // Where the log is signed, a failing checkpoint sink holds the breach webhooks: not ready (SPEC §10).
    ...(auditSigns ? [checkpointSinkReadinessCheck(db)] : []),
  ];
  let port: number;
  let closeHttp: () => Promise<void>;
  if (consistency) {
    const app = createHttpApp({
      config,
      logger,
      metrics,
      readiness,
      clock,
      openApiDocument: openApiDocument(PLATFORM_VERSION),
      asyncApiDocument: buildAsyncApiDocument(PLATFORM_VERSION),
      largerBodyLimits: COMMAND_BODY_LIMITS,
      fileBodyPaths: runs('command-api') ? commandFileBodyPaths(commandRoutes) : [],
      textBodyRoutes: runs('command-api') ? commandTextBodyRoutes(commandRoutes) : [],
      publicPages: runs('query-api') ? { '/console': consoleRouter() } : {},
    });
    if (runs('query-api'))
      app.use(
        createQueryRouter({
          db,
          consistency,
          readYourWritesTimeoutMs: config.readYourWritesTimeoutMs,
          eventStore,
          clock,
          ...(config.eventStoreUrl
            ? {}
            : {
                storedLog: {
                  readStoredEvents: (stream) => readStoredEvents(pool, stream),
                  readStoredEventsAt: (places) => readStoredEventsAt(pool, places),
                },
              }),
        }),
      );
    if (runs('command-api')) {
      const readings = readingHistoryCache(db);
      app.use(
        createCommandRouter({
          eventStore,
          farmerKeys,
          clock,
          readYourWrites: { consistency, timeoutMs: config.readYourWritesTimeoutMs },
          db,
          pricingReadings: readings.read,
          priceQuote: pricedQuotes(readings),
          environment: config.appEnv,
          webhookAllowInsecure: config.webhookAllowInsecure,
          indexSourceDefaults: config.indexSourceDefaults,
          indexFiles: { directory: config.indexFileDir, jobBytes: config.indexFileJobBytes },
          historyBackfills: historyBackfills(db, {
            directory: config.indexFileDir,
            waitMs: config.historyBackfillWaitMs,
            clock,
            logger,
          }),
          logger,
        }),
      );
      app.use(refusalToProblem);
    }
    finalizeHttpApp(app);
    const http = await serveHttp(app, config.port, { requestTimeoutMs: config.httpRequestTimeoutMs });
    port = http.port;
    closeHttp = http.close;
  } else if (options.serveOps === false) {
    port = 0;
    closeHttp = async () => undefined;
  } else {
    // A worker serves only what operations need: /healthz, /readyz and /metrics.
    const ops = await startOpsServer(metrics.registry, config.port, config, readiness);
    port = ops.port;
    closeHttp = ops.close;
  }

  const monitor =
    runs('monitor') && config.monitorEnabled
      ? startPolicyMonitor({ deps: { eventStore, db }, clock, logger, metricsRegistry: metrics.registry })
      : undefined;
  // Releases and cessions follow the policies whether or not the monitor's rounds are on.
  const bookKeeper = runs('monitor') ? await startProgrammeBookKeeper({ eventStore, db, clock, logger }) : undefined;
  // Backtests asked for are run whether or not the monitor's rounds are on.
  const backtests = runs('monitor') ? startPortfolioBacktestRunner({ eventStore, db, clock, logger }) : undefined;
  // So are the climatologies asked for.
  const climatologies = runs('monitor') ? startClimatologyRunner({ db, clock, logger }) : undefined;
  // And the product backtests.
  const productBacktests = runs('monitor') ? startProductBacktestRunner({ db, clock, logger }) : undefined;
  // And erasures drop the monitor's snapshots of the erased farmers' policies.
  const erasedSnapshots = runs('monitor') ? await startErasedFarmerSnapshots({ eventStore, db, logger }) : undefined;
  // The command API writes the index file ingestions: it takes up the ones a stopped process left unfinished.
  const ingestions = runs('command-api')
    ? startIngestionResumer({ db, eventStore, directory: config.indexFileDir, clock, logger })
    : undefined;
  const dispatcher = runs('webhook-dispatcher')
    ? await startWebhookDispatcher({
        eventStore,
        db,
        clock,
        logger,
        allowInsecure: config.webhookAllowInsecure,
        retryScale: config.webhookRetryScale,
        sending: { atOnce: config.webhookSendsAtOnce, perEndpoint: config.webhookSendsPerEndpoint },
        metricsRegistry: metrics.registry,
        kafka: configuredBreachSource(config, logger),
        // Wherever the integrator signs checkpoints (a key, and the log on PostgreSQL), breaches wait for one.
        auditGate: { awaitCheckpoint: auditSigns },
        hearCheckpoints: listenToCheckpointPublications(pool, logger),
      })
    : undefined;

  // The workers first (the policy in hand still needs the database and the event store), then HTTP, then
  // the projector's batch in flight, and the connections last.
  if (monitor) stops.push(monitor.stop);
  if (bookKeeper) stops.push(bookKeeper.stop);
  if (backtests) stops.push(backtests.stop);
  if (climatologies) stops.push(climatologies.stop);
  if (productBacktests) stops.push(productBacktests.stop);
  if (erasedSnapshots) stops.push(erasedSnapshots.stop);
  if (ingestions) stops.push(ingestions.stop);
  if (dispatcher) stops.push(dispatcher.stop);
  stops.push(closeHttp);
  if (projector) stops.push(projector.stop);
  if (publisher) stops.push(publisher.stop);
  if (auditIntegrator) stops.push(auditIntegrator.stop);
  if (checkpointDistribution) stops.push(checkpointDistribution.stop);
  if (consistency) stops.push(consistency.close);
  stops.push(
    () => eventStore.close(),
    async () => clock.stop(),
    () => endPool(pool),
    database.stop,
    tracing.shutdown,
  );
  return {
    port,
    metricsRegistry: metrics.registry,
    projector,
    stop: async () => {
      for (const stop of stops) await stop();
    },
  };
};

import cluster, { type Worker } from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { comparePositions, type GlobalPosition } from '@cropcover/eventstore';
import { decodeProgress, encodeProgress, type ProgressSource } from '@cropcover/read-store';
import {
  aggregateMetrics,
  type Config,
  ConfigError,
  createLogger,
  type Logger,
  loadConfigOrExit,
  type ProcessMetrics,
  resolveDatabaseUrl,
  stopOnSignals,
} from '@cropcover/runtime';
import type { Role } from './roles';
import { type RunningService, startService } from './start';

// `npm start` on more than one core: one process runs the projector, the monitor and the webhook
// dispatcher (each must run once), and HTTP_WORKERS node:cluster workers serve the command and query APIs
// on the one port, as the production topology's API processes would. The workers share the database the
// first process found or started. Over the cluster's IPC channel the first process tells the workers each
// checkpoint the projector commits (a waiting write wakes without a database round trip; their LISTEN
// connection stays as the fallback), and gathers every process's metrics for the worker asked for /metrics.

const BACKGROUND_ROLES: readonly Role[] = ['projector', 'monitor', 'webhook-dispatcher'];
const HTTP_ROLES: readonly Role[] = ['command-api', 'query-api'];

/** How long the first process waits for a worker's metrics before serving the others' without them. */
const METRICS_REPORT_TIMEOUT_MS = 2000;

type ToWorker =
  | { readonly kind: 'cropcover.background-started' }
  | { readonly kind: 'cropcover.progress'; readonly payload: string }
  | { readonly kind: 'cropcover.report-metrics'; readonly id: string }
  | { readonly kind: 'cropcover.scraped'; readonly id: string; readonly text: string };

type ToPrimary =
  | { readonly kind: 'cropcover.await-background' }
  | { readonly kind: 'cropcover.scrape'; readonly id: string }
  | { readonly kind: 'cropcover.metrics-report'; readonly id: string; readonly metrics: ProcessMetrics };

const isMessage = <Message extends { kind: string }>(value: unknown): value is Message =>
  typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';

const runPrimary = async (config: Config, logger: Logger): Promise<void> => {
  const database = await resolveDatabaseUrl(config, logger);
  let background: RunningService | undefined;
  let backgroundStarted: () => void = () => undefined;
  const backgroundStart = new Promise<void>((resolve) => {
    backgroundStarted = resolve;
  });
  let stopping = false;
  const reports = new Map<string, (metrics: ProcessMetrics) => void>();

  const workers = (): Worker[] => Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
  const reportOf = (worker: Worker): Promise<ProcessMetrics | undefined> =>
    new Promise((resolve) => {
      const id = randomUUID();
      const timer = setTimeout(() => {
        reports.delete(id);
        resolve(undefined);
      }, METRICS_REPORT_TIMEOUT_MS);
      reports.set(id, (metrics) => {
        clearTimeout(timer);
        reports.delete(id);
        resolve(metrics);
      });
      worker.send({ kind: 'cropcover.report-metrics', id } satisfies ToWorker);
    });
  const scrapeAll = async (): Promise<string> => {
    const reported = await Promise.all(workers().map(reportOf));
    const own = (await background?.metricsRegistry.getMetricsAsJSON()) ?? [];
    return aggregateMetrics([own, ...reported.filter((metrics) => metrics !== undefined)]);
  };

  const fork = (): void => {
    const worker = cluster.fork({ DATABASE_URL: database.url });
    worker.on('message', (message: unknown) => {
      if (!isMessage<ToPrimary>(message)) return;
      if (message.kind === 'cropcover.await-background')
        void backgroundStart.then(() => worker.send({ kind: 'cropcover.background-started' } satisfies ToWorker));
      else if (message.kind === 'cropcover.metrics-report') reports.get(message.id)?.(message.metrics);
      else if (message.kind === 'cropcover.scrape')
        scrapeAll().then(
          (text) => worker.send({ kind: 'cropcover.scraped', id: message.id, text } satisfies ToWorker),
          (error: unknown) => logger.error({ err: error }, 'could not gather the workers’ metrics'),
        );
    });
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    logger.error({ pid: worker.process.pid, code, signal }, 'an HTTP worker died; starting another');
    fork();
  });
  let announced = false;
  cluster.on('listening', (_worker, address) => {
    if (announced) return;
    announced = true;
    logger.info(
      { port: address.port, http_workers: config.httpWorkers, app_env: config.appEnv },
      `CropCover listening on http://127.0.0.1:${address.port}`,
    );
  });
  // The workers load the code while this process starts its roles, and open the port once it has: a
  // service that answers /readyz has its projector running, so a write does not wait for it to start.
  for (let count = 0; count < config.httpWorkers; count += 1) fork();
  background = await startService(BACKGROUND_ROLES, { ...config, databaseUrl: database.url }, logger, {
    serveOps: false,
  });
  backgroundStarted();
  // A batch announces every projection it moved, one call each, all in one go: the workers get one
  // message per batch naming them all, not one per projection (IPC writes were 8 % of this process's CPU).
  let unsent: { names: string[]; position: GlobalPosition } | undefined;
  const sendUnsent = (): void => {
    if (!unsent) return;
    const message: ToWorker = { kind: 'cropcover.progress', payload: encodeProgress(unsent.names, unsent.position) };
    unsent = undefined;
    for (const worker of workers()) if (worker.isConnected()) worker.send(message);
  };
  background.projector?.onAdvanced(({ name, position }) => {
    if (unsent && comparePositions(unsent.position, position) !== 0) sendUnsent();
    if (unsent) unsent.names.push(name);
    else {
      unsent = { names: [name], position };
      queueMicrotask(sendUnsent);
    }
  });

  stopOnSignals(logger, async () => {
    stopping = true;
    // The workers finish their requests first (they may be waiting for the projector), then the rest.
    await Promise.all(
      workers().map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            worker.once('exit', () => resolve());
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    await background?.stop();
    await database.stop();
  });
};

/** The projector's progress as the first process relays it. */
const relayedProgress: ProgressSource = {
  onAdvanced: (listener) => {
    const onMessage = (message: unknown): void => {
      if (isMessage<ToWorker>(message) && message.kind === 'cropcover.progress')
        for (const progress of decodeProgress(message.payload)) listener(progress);
    };
    process.on('message', onMessage);
    return () => process.off('message', onMessage);
  },
};

const runHttpWorker = async (config: Config, logger: Logger): Promise<void> => {
  const backgroundStarted = new Promise<void>((resolve) => {
    const onMessage = (message: unknown): void => {
      if (!isMessage<ToWorker>(message) || message.kind !== 'cropcover.background-started') return;
      process.off('message', onMessage);
      resolve();
    };
    process.on('message', onMessage);
    // Asked only now: a message sent before this process listens for it would be lost.
    process.send?.({ kind: 'cropcover.await-background' } satisfies ToPrimary);
  });
  const scrapes = new Map<string, (text: string) => void>();
  const send = (message: ToPrimary): void => {
    process.send?.(message);
  };
  let registry: RunningService['metricsRegistry'] | undefined;
  process.on('message', (message: unknown) => {
    if (!isMessage<ToWorker>(message)) return;
    if (message.kind === 'cropcover.scraped') scrapes.get(message.id)?.(message.text);
    else if (message.kind === 'cropcover.report-metrics')
      void registry
        ?.getMetricsAsJSON()
        .then((metrics: ProcessMetrics) => send({ kind: 'cropcover.metrics-report', id: message.id, metrics }));
  });
  const scrapeMetrics = (): Promise<string> =>
    new Promise((resolve) => {
      const id = randomUUID();
      scrapes.set(id, (text) => {
        scrapes.delete(id);
        resolve(text);
      });
      send({ kind: 'cropcover.scrape', id });
    });
  // A worker whose first process is gone (killed) has no projector to wait for: it stops too.
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  await backgroundStarted;
  const service = await startService(HTTP_ROLES, config, logger, { projectorProgress: relayedProgress, scrapeMetrics });
  registry = service.metricsRegistry;
  stopOnSignals(logger, service.stop);
};

/** `npm start`: every role, on an embedded PostgreSQL unless DATABASE_URL is set, on HTTP_WORKERS + 1 processes. */
export const runAllInOne = async (): Promise<void> => {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel, name: cluster.isPrimary ? 'cropcover' : 'cropcover-http' });
  try {
    if (cluster.isPrimary) await runPrimary(config, logger);
    else await runHttpWorker(config, logger);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
};

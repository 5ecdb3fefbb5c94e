import type { Express } from 'express';
import { type Clock, systemClock } from '../clock';
import { type Config, loadConfig } from '../config';
import { createHttpApp, finalizeHttpApp } from '../http/app';
import type { TextBodyRoute } from '../http/json-body';
import type { ReadinessCheck } from '../http/readiness';
import { createLogger } from '../logger';
import { createMetrics } from '../metrics';
import { listen, type RunningServer } from './listen';

export interface TestApp extends RunningServer {
  /** Every log line the app wrote, parsed. */
  readonly logs: Record<string, unknown>[];
  /** Raw log output, to assert what must never appear in it. */
  readonly rawLogs: () => string;
}

export interface TestAppOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly clock?: Clock;
  readonly readiness?: readonly ReadinessCheck[];
  readonly openApiDocument?: object;
  readonly asyncApiDocument?: object;
  /** Mounts the routes under test between createHttpApp and finalizeHttpApp. */
  readonly mount?: (app: Express) => void;
  /** The mounted routes' text forms of their JSON bodies, as the process's app is given them. */
  readonly textBodyRoutes?: readonly TextBodyRoute[];
}

/** The real app stack on a real port, configured from `env` the way a process would be. */
export const startTestApp = async ({
  env = {},
  clock = systemClock,
  readiness = [],
  openApiDocument = { openapi: '3.1.0', info: { title: 'test', version: '0' }, paths: {} },
  asyncApiDocument = { asyncapi: '3.0.0', info: { title: 'test', version: '0' } },
  mount,
  textBodyRoutes,
}: TestAppOptions = {}): Promise<TestApp & { config: Config }> => {
  const config = loadConfig({ LOG_LEVEL: 'debug', ...env });
  const lines: string[] = [];
  const logger = createLogger({ level: config.logLevel, destination: { write: (line: string) => lines.push(line) } });
  const app = createHttpApp({
    config,
    logger,
    metrics: createMetrics(),
    readiness,
    openApiDocument,
    asyncApiDocument,
    clock,
    textBodyRoutes,
  });
  mount?.(app);
  finalizeHttpApp(app);
  const server = await listen(app);
  return {
    ...server,
    config,
    get logs() {
      return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    rawLogs: () => lines.join(''),
  };
};

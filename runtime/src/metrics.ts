import type { Request, RequestHandler } from 'express';
import { AggregatorRegistry, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

// One registry per process (per app in tests): the HTTP layer records request latency here, and the
// projector, monitor and dispatcher register their own metrics (lag, delivery outcomes) on it too.

export interface Metrics {
  readonly registry: Registry;
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  /** Times every request, labelled by route pattern (not the raw path, to keep label sets bounded). */
  readonly middleware: RequestHandler;
  /** Serves the registry in the Prometheus text format. */
  readonly handler: RequestHandler;
}

const UNMATCHED_ROUTE = 'unmatched';

// The router assigns `req.route` when a route matches, while `req.baseUrl` still holds the mount path
// of the router that owns it; by the time the response finishes an error may have unwound baseUrl.
// Capturing both at assignment gives the full pattern (`/insurance/policies/:policy_id`).
const recordRoutePattern = (req: Request): (() => string) => {
  let pattern = UNMATCHED_ROUTE;
  let route: unknown;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: { path?: unknown } | undefined) => {
      route = value;
      if (typeof value?.path === 'string') pattern = `${req.baseUrl}${value.path}`;
    },
  });
  return () => pattern;
};

/** `scrape` replaces what `/metrics` serves: an HTTP worker of the all-in-one service serves every process's
 *  metrics, gathered by the process that runs the workers (service/src/all-in-one.ts). */
export const createMetrics = (scrape?: () => Promise<string>): Metrics => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    registry,
    httpRequestDuration,
    middleware: (req, res, next) => {
      const stop = httpRequestDuration.startTimer({ method: req.method });
      const routePattern = recordRoutePattern(req);
      res.once('close', () => stop({ route: routePattern(), status: String(res.statusCode) }));
      next();
    },
    handler: async (_req, res) => {
      res.set('Content-Type', registry.contentType).send(await (scrape ? scrape() : registry.metrics()));
    },
  };
};

/** One process's metrics as it hands them to the process that serves a whole service's. */
export type ProcessMetrics = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** One exposition of several processes' metrics: counters and histograms summed, gauges by the rule each
 *  declares (prom-client's cluster aggregation). */
export const aggregateMetrics = (processes: readonly ProcessMetrics[]): Promise<string> =>
  AggregatorRegistry.aggregate([...processes]).metrics();

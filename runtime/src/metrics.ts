import type { RequestHandler } from 'express';
import { AggregatorRegistry, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { routePatternOf } from './http/route-pattern';

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
      const routePattern = routePatternOf(req);
      res.once('close', () => stop({ route: routePattern() ?? UNMATCHED_ROUTE, status: String(res.statusCode) }));
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

import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
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

export const createMetrics = (): Metrics => {
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
      res.set('Content-Type', registry.contentType).send(await registry.metrics());
    },
  };
};

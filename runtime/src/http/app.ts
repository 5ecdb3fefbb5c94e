import express, { type Express, type Router } from 'express';
import { type Clock, systemClock } from '../clock';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import { traceHttpRequests } from '../tracing/http-server-span';
import { createAuthenticator } from './auth';
import { docsRouter } from './docs';
import { jsonBody, type TextBodyRoute } from './json-body';
import { mayReadMetrics } from './metrics-access';
import { ProblemError } from './problem';
import { notFoundHandler, problemHandler } from './problem-handler';
import { createRateLimiter } from './rate-limit';
import { type ReadinessCheck, readinessHandler } from './readiness';
import { requestContext } from './request-context';
import { noFraming, noSniff, noStore } from './security-headers';

export interface HttpAppOptions {
  readonly config: Pick<Config, 'auth' | 'rateLimitPerMinute' | 'appEnv' | 'metricsToken'>;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly readiness: readonly ReadinessCheck[];
  readonly openApiDocument: object;
  /** The Kafka topics' contract (AsyncAPI 3), served beside the HTTP one. */
  readonly asyncApiDocument: object;
  readonly clock?: Clock;
  /** Bulk paths allowed bodies over 1 MiB (exact path → limit in bytes). */
  readonly largerBodyLimits?: Readonly<Record<string, number>>;
  /** Paths of routes whose body is a file they stream themselves (`RouteRequest.file`). */
  readonly fileBodyPaths?: readonly RegExp[];
  /** Routes that take a text form of their JSON body (`RouteRequest.text`). */
  readonly textBodyRoutes?: readonly TextBodyRoute[];
  /** Pages served to anyone, as /docs is (path → router): each asks the person for a token and sends it
   *  with the API calls it makes, so the API's own checks decide what it shows. */
  readonly publicPages?: Readonly<Record<string, Router>>;
}

/**
 * The shared front of every API process. Public endpoints first (health, readiness, metrics — closed in
 * production without METRICS_TOKEN —, OpenAPI, AsyncAPI, docs); everything the caller mounts afterwards is
 * authenticated, rate limited, kept out of caches and gets parsed JSON.
 * Authentication comes before body parsing so an anonymous caller cannot make the server read 1 MiB
 * bodies, and a missing token is reported as 401 before any complaint about the body.
 * Mount routers, then call finalizeHttpApp.
 */
export const createHttpApp = ({
  config,
  logger,
  metrics,
  readiness,
  openApiDocument,
  asyncApiDocument,
  clock = systemClock,
  largerBodyLimits,
  fileBodyPaths,
  textBodyRoutes,
  publicPages = {},
}: HttpAppOptions): Express => {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(noSniff);
  app.use(traceHttpRequests);
  app.use(requestContext(logger));
  app.use(metrics.middleware);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', readinessHandler(readiness));
  app.get(
    '/metrics',
    (req, _res, next) => {
      if (!mayReadMetrics(req.get('authorization'), config))
        throw ProblemError.unauthorized('A metrics token is required.');
      next();
    },
    metrics.handler,
  );
  app.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument);
  });
  app.get('/asyncapi.json', (_req, res) => {
    res.json(asyncApiDocument);
  });
  app.use('/docs', noFraming, docsRouter(openApiDocument));
  for (const [path, router] of Object.entries(publicPages)) app.use(path, router);

  const rateLimiter = createRateLimiter({ perMinute: config.rateLimitPerMinute, clock });
  app.use(createAuthenticator(config.auth, clock));
  app.use(noStore);
  app.use(rateLimiter.limitFailedAuthentication);
  app.use(rateLimiter.limitBySubject);
  app.use(jsonBody(largerBodyLimits, fileBodyPaths, textBodyRoutes));
  return app;
};

/** Adds the 404 for unknown routes and the problem-details error handler after the caller's routers. */
export const finalizeHttpApp = (app: Express): Express => {
  app.use(notFoundHandler);
  app.use(problemHandler);
  return app;
};

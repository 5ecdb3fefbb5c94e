import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import { routePatternOf } from '../http/route-pattern';
import { startSpan } from './spans';

// Attribute names of the OpenTelemetry HTTP semantic conventions, written out: the package that lists
// them is not worth loading into every process for four strings.

/** First middleware of every app: one server span per request, continuing the caller's `traceparent`
 *  (and `tracestate`), named by the route pattern once the router found it, never by the raw path. */
export const traceHttpRequests: RequestHandler = (req, res, next) => {
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = startSpan(
    req.method,
    {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': req.method, 'url.path': req.path },
    },
    parent,
  );
  const routePattern = routePatternOf(req);
  res.once('close', () => {
    const route = routePattern();
    if (route !== undefined) {
      span.updateName(`${req.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  const active = trace.setSpan(parent, span);
  // The body arrives in stream events, which would otherwise run outside the request's context.
  context.bind(active, req);
  context.bind(active, res);
  context.with(active, next);
};

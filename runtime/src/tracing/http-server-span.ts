import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import type { RequestHandler } from 'express';
import { routePatternOf } from '../http/route-pattern';
import { startSpan } from './spans';

/** First middleware of every app: one server span per request, continuing the caller's `traceparent`
 *  (and `tracestate`), named by the route pattern once the router found it, never by the raw path. */
export const traceHttpRequests: RequestHandler = (req, res, next) => {
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = startSpan(
    req.method,
    {
      kind: SpanKind.SERVER,
      attributes: { [ATTR_HTTP_REQUEST_METHOD]: req.method, [ATTR_URL_PATH]: req.path },
    },
    parent,
  );
  const routePattern = routePatternOf(req);
  res.once('close', () => {
    const route = routePattern();
    if (route !== undefined) {
      span.updateName(`${req.method} ${route}`);
      span.setAttribute(ATTR_HTTP_ROUTE, route);
    }
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  const active = trace.setSpan(parent, span);
  // The body arrives in stream events, which would otherwise run outside the request's context.
  context.bind(active, req);
  context.bind(active, res);
  context.with(active, next);
};

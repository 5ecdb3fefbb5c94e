import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import type { Request, RequestHandler } from 'express';
import type { Logger } from '../logger';

export interface RequestContext {
  readonly requestId: string;
  /** Ties the request to the events it causes: the caller's `X-Correlation-Id`, else the request id. */
  readonly correlationId: string;
  /** Child logger carrying request_id and correlation_id. */
  readonly logger: Logger;
}

const contexts = new WeakMap<Request, RequestContext>();

// Inbound ids end up in logs and event metadata: accept only short, printable, unambiguous tokens.
const saneId = /^[A-Za-z0-9._:-]{1,128}$/;

const inboundId = (value: string | undefined): string | undefined =>
  value !== undefined && saneId.test(value) ? value : undefined;

/** Runs in every app right after the request's server span starts: assigns the request id, echoes it,
 *  and writes one access log line. */
export const requestContext =
  (logger: Logger): RequestHandler =>
  (req, res, next) => {
    const requestId = inboundId(req.get('X-Request-Id')) ?? randomUUID();
    const correlationId = inboundId(req.get('X-Correlation-Id')) ?? requestId;
    // A traced request's log lines name its trace, so a trace found in a collector leads to its logs.
    const span = trace.getActiveSpan();
    const requestLogger = logger.child({
      request_id: requestId,
      correlation_id: correlationId,
      ...(span?.isRecording() ? { trace_id: span.spanContext().traceId } : {}),
    });
    contexts.set(req, { requestId, correlationId, logger: requestLogger });
    res.setHeader('X-Request-Id', requestId);

    const started = process.hrtime.bigint();
    res.once('close', () => {
      const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
      // The path only: query strings and headers may carry data that has no place in a log.
      requestLogger.info(
        {
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          ms: Math.round(milliseconds * 10) / 10,
          ...(res.writableFinished ? {} : { aborted: true }),
        },
        'request',
      );
    });
    next();
  };

export const requestContextOf = (req: Request): RequestContext => {
  const context = contexts.get(req);
  if (!context) throw new Error('requestContext middleware has not run for this request');
  return context;
};

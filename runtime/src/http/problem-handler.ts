import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../database-unavailable';
import { ProblemError } from './problem';
import { requestContextOf } from './request-context';
import { UNDECLARED_PROBLEM, undeclaredProblem } from './routes/answered-route';

// Writes every error as RFC 9457 problem details. Client mistakes reported by express and
// body-parser become the matching 4xx; anything else is a bug: logged in full, answered with an
// opaque 500 that carries only the request id.

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/** Problem types are URNs: stable identifiers, not links to dereference (RFC 9457 §3.1.1). */
export const problemType = (code: string): string => `urn:cropcover:problem:${code}`;

interface HttpLikeError {
  readonly name?: unknown;
  readonly status?: unknown;
  readonly type?: unknown;
  readonly expose?: unknown;
}

// body-parser and express raise http-errors with a `type` telling what went wrong.
const fromHttpError = (error: HttpLikeError): ProblemError | undefined => {
  switch (error.type) {
    case 'entity.too.large':
      return ProblemError.payloadTooLarge();
    case 'entity.parse.failed':
      return ProblemError.malformedJson();
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return ProblemError.unsupportedMediaType('The request body must be UTF-8 encoded JSON.');
    case 'request.aborted':
    case 'request.size.invalid':
      return ProblemError.badRequest('incomplete_body', 'The request body did not arrive complete.');
  }
  // The router could not percent-decode a path parameter (`/farms/%ZZ`); it marks that 400 but not exposed.
  if (error.name === 'URIError' && error.status === 400)
    return ProblemError.badRequest('malformed_path', 'The request path has a malformed percent-escape.');
  if (typeof error.status === 'number' && error.status >= 400 && error.status < 500 && error.expose === true)
    return ProblemError.badRequest('bad_request', 'The request could not be understood.');
  return undefined;
};

const databaseUnavailable = ProblemError.serviceUnavailable(
  'database_unavailable',
  'The database cannot serve this request right now; nothing was changed. Try again after Retry-After seconds.',
  DATABASE_RETRY_AFTER_SECONDS,
);

const internalError = new ProblemError({
  status: 500,
  code: 'internal_error',
  title: 'Internal server error',
  detail: 'An unexpected error occurred. Quote the request id when reporting it.',
});

const send = (req: Request, res: Parameters<RequestHandler>[1], problem: ProblemError): void => {
  res.status(problem.status).set(problem.headers).set('Content-Type', PROBLEM_CONTENT_TYPE);
  res.json({
    type: problemType(problem.code),
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    instance: req.originalUrl.split('?')[0],
    code: problem.code,
    request_id: requestContextOf(req).requestId,
    ...(problem.errors ? { errors: problem.errors } : {}),
  });
};

export const problemHandler: ErrorRequestHandler = (error: unknown, req, res, next) => {
  // Once the status line is out the response cannot become a problem; let express end the socket.
  if (res.headersSent) return next(error);
  const known =
    error instanceof ProblemError
      ? error
      : isDatabaseUnavailable(error)
        ? databaseUnavailable
        : typeof error === 'object' && error !== null
          ? fromHttpError(error as HttpLikeError)
          : undefined;
  const { logger } = requestContextOf(req);
  if (!known) logger.error({ err: error }, 'unhandled error');
  else if (known.status >= 500) logger.warn({ code: known.code, detail: known.detail }, 'request failed');
  const undeclared = known && undeclaredProblem(req, known);
  if (undeclared) logger.error(undeclared, UNDECLARED_PROBLEM);
  send(req, res, known ?? internalError);
};

export const notFoundHandler: RequestHandler = (req) => {
  throw ProblemError.notFound(`No route for ${req.method} ${req.originalUrl.split('?')[0]}.`);
};

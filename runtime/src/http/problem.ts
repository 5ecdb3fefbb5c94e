import type { ProblemCode } from '@cropcover/contracts';

// The one error type of the HTTP layer. Anything a handler throws that is not a ProblemError is a bug
// and becomes an opaque 500 (see problem-handler.ts).

export interface FieldError {
  /** Dotted path of the offending field (`perils.0`, `location.lat`); empty for the body as a whole. */
  readonly path: string;
  readonly message: string;
}

export interface ProblemInit {
  readonly status: number;
  /** Stable snake_case code clients can switch on: one of contracts/src/http-api/problem-codes.ts. */
  readonly code: ProblemCode;
  readonly title: string;
  readonly detail?: string;
  readonly errors?: readonly FieldError[];
  readonly headers?: Readonly<Record<string, string>>;
}

export class ProblemError extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  readonly title: string;
  readonly detail: string;
  readonly errors: readonly FieldError[] | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor({ status, code, title, detail, errors, headers }: ProblemInit) {
    super(detail ?? title);
    this.name = 'ProblemError';
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = detail ?? title;
    this.errors = errors;
    this.headers = headers ?? {};
  }

  static validationFailed(errors: readonly FieldError[]): ProblemError {
    const paths = errors.map((error) => error.path || '(body)').join(', ');
    return new ProblemError({
      status: 400,
      code: 'validation_failed',
      title: 'Validation failed',
      detail: `Invalid field${errors.length === 1 ? '' : 's'}: ${paths}.`,
      errors,
    });
  }

  static malformedJson(detail = 'The request body is not valid JSON.'): ProblemError {
    return new ProblemError({ status: 400, code: 'malformed_json', title: 'Malformed JSON', detail });
  }

  static badRequest(code: ProblemCode, detail: string): ProblemError {
    return new ProblemError({ status: 400, code, title: 'Bad request', detail });
  }

  /**
   * 401 with the RFC 6750 challenge. `bearerError` is set when a token was presented but rejected
   * (`invalid_token`); a request without credentials gets the bare challenge.
   */
  static unauthorized(
    detail = 'A bearer token is required.',
    { code = 'unauthorized', bearerError }: { code?: ProblemCode; bearerError?: 'invalid_token' } = {},
  ): ProblemError {
    const challenge = bearerError
      ? `Bearer realm="cropcover", error="${bearerError}", error_description="${detail.replaceAll('"', "'")}"`
      : 'Bearer realm="cropcover"';
    return new ProblemError({
      status: 401,
      code,
      title: 'Unauthorized',
      detail,
      headers: { 'WWW-Authenticate': challenge },
    });
  }

  static forbidden(detail = 'You are not allowed to do this.', code: ProblemCode = 'forbidden'): ProblemError {
    return new ProblemError({ status: 403, code, title: 'Forbidden', detail });
  }

  static notFound(detail = 'The resource does not exist.'): ProblemError {
    return new ProblemError({ status: 404, code: 'not_found', title: 'Not found', detail });
  }

  static conflict(code: ProblemCode, detail: string): ProblemError {
    return new ProblemError({ status: 409, code, title: 'Conflict', detail });
  }

  static payloadTooLarge(
    detail = 'The request body is larger than 1 MiB.',
    headers: Readonly<Record<string, string>> = {},
  ): ProblemError {
    return new ProblemError({ status: 413, code: 'payload_too_large', title: 'Payload too large', detail, headers });
  }

  static unsupportedMediaType(
    detail = 'The request body must be JSON (Content-Type: application/json).',
  ): ProblemError {
    return new ProblemError({ status: 415, code: 'unsupported_media_type', title: 'Unsupported media type', detail });
  }

  static unprocessable(code: ProblemCode, detail: string): ProblemError {
    return new ProblemError({ status: 422, code, title: 'Unprocessable content', detail });
  }

  static tooManyRequests(retryAfterSeconds: number): ProblemError {
    return new ProblemError({
      status: 429,
      code: 'rate_limited',
      title: 'Too many requests',
      detail: `Rate limit exceeded; retry after ${retryAfterSeconds} s.`,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }

  static serviceUnavailable(code: ProblemCode, detail: string, retryAfterSeconds?: number): ProblemError {
    return new ProblemError({
      status: 503,
      code,
      title: 'Service unavailable',
      detail,
      headers: retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

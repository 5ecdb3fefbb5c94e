// SPEC §10: a request PostgreSQL cannot serve right now — unreachable, restarting, out of disk, a standby
// that refuses writes, or a wait past its bound — is answered 503 with Retry-After, never a 500: the
// client may try again, and nothing was written (an append is one statement; it committed or it did not).

/** Seconds a client is asked to wait before it tries again (SPEC §10's default bound). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** SQLSTATE classes and codes of a server that cannot serve now, rather than of a wrong request:
 *  08 connection exception, 53 insufficient resources (disk full, out of memory, too many connections),
 *  57P01-57P03 shutting down, crashed, starting up, 25006 a read-only standby (after a failover), 58030
 *  an I/O error. */
const UNAVAILABLE_SQLSTATE = /^(08|53|57P0[1-3]$|25006$|58030$)/;

/** Errors of the socket or of node-postgres when the connection is gone or never came. */
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'is not queryable',
  'Client was closed and is not queryable',
];

const isUnavailableItself = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (CONNECTION_ERRNOS.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  return typeof message === 'string' && CONNECTION_MESSAGES.some((known) => message.includes(known));
};

/** Whether `error`, or an error it was caused by, says the database cannot serve now. */
export const isDatabaseUnavailable = (error: unknown): boolean => {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    if (isUnavailableItself(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
};

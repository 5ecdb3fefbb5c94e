import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-unavailable';

// SPEC §10: what PostgreSQL (or the way to it) says when it cannot serve now is told from a wrong
// request, so the HTTP layer answers it 503 with Retry-After instead of 500.

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', pgError('ECONNREFUSED')],
    ['a reset connection', pgError('ECONNRESET')],
    [
      'a server that crashed under the connection',
      pgError('57P01', 'terminating connection due to unexpected postmaster exit'),
    ],
    ['a server starting up', pgError('57P03', 'the database system is starting up')],
    ['a full disk', pgError('53100', 'could not extend file')],
    ['a standby refusing a write', pgError('25006', 'cannot execute INSERT in a read-only transaction')],
    ['a connection exception', pgError('08006')],
    ['a connection that ended', new Error('Connection terminated unexpectedly')],
    ['a connect past its timeout', new Error('timeout exceeded when trying to connect')],
    ['a wrapped cause', new Error('append failed', { cause: pgError('ECONNREFUSED') })],
  ])('holds for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', pgError('23505', 'duplicate key')],
    ['a syntax error', pgError('42601')],
    ['a bug', new TypeError('undefined is not a function')],
    ['nothing', undefined],
  ])('does not hold for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

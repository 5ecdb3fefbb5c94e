import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { ReadinessCheck } from './http/readiness';
import type { Logger } from './logger';

// 64-bit integers (`int8`/`bigint`, e.g. global positions and counts, and `xid8` transaction ids) are
// parsed as JavaScript `bigint` on every pool made here: exact beyond 2^53, and comparable with `<`,
// which strings are not. Convert with Number() only where the value is known to be small (counts,
// page totals) before it goes into JSON. `numeric` stays a string; int8 arrays stay string arrays.
const INT8_OID = 20;
const XID8_OID = 5069;

const parseBigInt = (value: string): bigint => BigInt(value);

const typeParsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID || oid === XID8_OID
      ? parseBigInt
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

export interface PoolOptions {
  readonly max?: number;
  readonly applicationName?: string;
  /** How long to wait for a connection, or for the answer to one query, before failing (SPEC §10:
   *  PostgreSQL unreachable or slow must not hang a request). Unbounded when absent (migrations, CLIs). */
  readonly waitMs?: number;
}

const READ_TIMEOUT = 'Query read timeout';

interface ClientInternals {
  readonly connection: { readonly stream: { destroy(): void } };
}

/**
 * A client whose query went unanswered past its bound ends its connection at once. Across a partition
 * the query's packets wait for TCP's retransmissions, which back off to tens of seconds: the connection
 * would stay stuck well after the network returned, with every later query (a transaction's rollback
 * first) queued behind it. Ended, its queued queries fail at once and the pool opens a fresh connection.
 */
class BoundedWaitClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; every one passes through unchanged
  override query(...args: any[]): any {
    const callback = args.at(-1);
    if (typeof callback === 'function')
      args[args.length - 1] = (error: Error | undefined, result: unknown) => {
        this.endIfUnanswered(error);
        callback(error, result);
      };
    const answered: unknown = Reflect.apply(super.query, this, args);
    if (answered instanceof Promise) answered.catch((error: Error) => this.endIfUnanswered(error));
    return answered;
  }

  private endIfUnanswered(error: Error | undefined): void {
    if (error?.message === READ_TIMEOUT) (this as unknown as ClientInternals).connection.stream.destroy();
  }
}

/** A pg pool with bigint int8 parsing; errors of idle connections are logged instead of crashing. */
export const createPool = (
  url: string,
  logger: Logger,
  { max = 10, applicationName = 'cropcover', waitMs }: PoolOptions = {},
) => {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: applicationName,
    types: typeParsers,
    ...(waitMs === undefined
      ? {}
      : { Client: BoundedWaitClient, connectionTimeoutMillis: waitMs, query_timeout: waitMs, keepAlive: true }),
  });
  // The message and code only: pg's error carries the whole client (statements, connection state).
  pool.on('error', (error) =>
    logger.error({ error: error.message, code: (error as { code?: string }).code }, 'idle database connection failed'),
  );
  // A connection checked out of the pool has no 'error' listener of pg-pool's: PostgreSQL ending it
  // between two of its queries (a crash, a restart, a failover) would crash the whole process with an
  // unhandled 'error' event. Its next query fails instead, and the pool drops it when it is released.
  pool.on('connect', (client) =>
    client.on('error', (error) =>
      logger.warn({ error: error.message, code: (error as { code?: string }).code }, 'database connection ended'),
    ),
  );
  return pool;
};

/** Ends the pool and resolves once every connection has closed. `pool.end()` resolves as soon as the
 *  connections were asked to close; stopping their server (or dropping their database) right then
 *  terminates them mid-goodbye, and the pool reports that as an error. */
export const endPool = async (pool: pg.Pool): Promise<void> => {
  let open = pool.totalCount;
  const allClosed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => {
      open -= 1;
      if (open === 0) resolve();
    });
  });
  await pool.end();
  await allClosed;
};

/** Kysely over the pool; `db.destroy()` ends the pool too. */
export const createKysely = <DB>(pool: pg.Pool): Kysely<DB> =>
  new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });

export const databaseReadinessCheck = (pool: pg.Pool): ReadinessCheck => ({
  name: 'database',
  check: async () => {
    await pool.query('select 1');
  },
});

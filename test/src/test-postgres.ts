import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createLogger, maskUrlPasswords, startEmbeddedPostgres } from '@cropcover/runtime';
import pg from 'pg';
import { freePort, repositoryRoot } from './support/service-process';

// The PostgreSQL server the integration suites create their databases on: TEST_DATABASE_URL when set,
// else the server these machines run at 127.0.0.1:5432, else — a fresh machine with only Node — an
// embedded one for this run, the same server `npm start` uses, with throwaway data.

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestPostgres {
  readonly url: string;
  stop(): Promise<void>;
}

const announce = (message: string): void => console.warn(`\n=== npm test: PostgreSQL: ${message}\n`);

/** The reason `url` cannot be used, or undefined when it answers a query. */
const unreachable = async (url: string): Promise<string | undefined> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
};

const startEmbedded = async (): Promise<TestPostgres> => {
  // In the checkout (gitignored), not the os tmpdir: the server runs as the `postgres` user, which
  // must be able to reach its data directory. One directory per run, so runs never share data.
  const dataDir = join(repositoryRoot, '.data', 'test-postgres', `run-${process.pid}`);
  const port = await freePort();
  const server = await startEmbeddedPostgres({ dataDir, port, logger: createLogger({ level: 'warn' }) });
  return {
    url: server.url,
    stop: async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

export const provideTestPostgres = async (): Promise<TestPostgres> => {
  const configured = process.env.TEST_DATABASE_URL;
  if (configured) {
    // An explicit choice that does not work is an error, never a reason to quietly test elsewhere.
    const reason = await unreachable(configured);
    if (reason) throw new Error(`TEST_DATABASE_URL ${maskUrlPasswords(configured)} is not reachable: ${reason}`);
    announce(`TEST_DATABASE_URL ${maskUrlPasswords(configured)}`);
    return { url: configured, stop: async () => undefined };
  }
  const reason = await unreachable(DEFAULT_URL);
  if (!reason) {
    announce(`the local server at ${DEFAULT_URL}`);
    return { url: DEFAULT_URL, stop: async () => undefined };
  }
  announce(`nothing usable at ${DEFAULT_URL} (${reason}); starting an embedded server for this run`);
  const embedded = await startEmbedded();
  announce(`embedded server at ${maskUrlPasswords(embedded.url)}; it stops when the run ends`);
  return embedded;
};

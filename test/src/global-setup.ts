import pg from 'pg';

// Finds the PostgreSQL server the integration suites use: TEST_DATABASE_URL when set, else the local
// server these machines run at 127.0.0.1:5432. When none answers, say so loudly and stop: a suite that
// cannot reach its database must not pass by running nothing.
const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL ?? DEFAULT_URL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${url} (${(error as Error).message}). Start it ` +
        `(pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start) or set TEST_DATABASE_URL.`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
  process.env.TEST_DATABASE_URL = url;
}

import { randomBytes } from 'node:crypto';
import pg from 'pg';

// Integration and end-to-end suites each get a database of their own on the PostgreSQL server that
// the global setup found or started, so files run in parallel without seeing each other's rows.

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

export const testServerUrl = (): string => {
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error('TEST_DATABASE_URL is not set: run the tests through vitest (test/src/global-setup.ts sets it)');
  return url;
};

export const createTestDatabase = async (label = 'test'): Promise<TestDatabase> => {
  const server = new URL(testServerUrl());
  const name = `cc_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: server.toString() });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
};

import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { apiClient } from './api-client';
import { type RunningService, startService } from './service-process';

/** One end-to-end file's service: a database of its own and `npm start` on it, started before the file's
 *  tests and stopped after them, with an HTTP client and a SQL connection for asserting what changed. */
export const serviceUnderTest = (databaseName: string, env: Record<string, string> = {}) => {
  let database: TestDatabase | undefined;
  let service: RunningService | undefined;
  let sql: pg.Client | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(databaseName);
    service = await startService({ DATABASE_URL: database.url, ...env });
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  }, 120_000);
  afterAll(async () => {
    await sql?.end();
    await service?.stop();
    await database?.drop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error(`${databaseName}: the service starts in beforeAll, not before`);
    return value;
  };
  return {
    api: apiClient(() => started(service).baseUrl),
    query: <R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]) =>
      started(sql).query<R>(text, values),
    get service(): RunningService {
      return started(service);
    },
    get databaseUrl(): string {
      return started(database).url;
    },
  };
};

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKysely, createPool, databaseReadinessCheck } from './database';
import { createLogger } from './logger';
import { createTestDatabase, type TestDatabase } from './testing/test-database';

const logger = createLogger({ level: 'silent' });

describe('createPool and createKysely', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('runtime');
  });
  afterAll(() => database.drop());

  it('parses int8 and xid8 as bigint, exactly', async () => {
    const pool = createPool(database.url, logger);
    try {
      const { rows } = await pool.query(
        "select 9007199254740993::int8 as big, count(*) as n, '42'::xid8 as xid, 1.50::numeric as amount, 7::int4 as small from (values (1), (2)) v",
      );
      expect(rows[0]).toEqual({ big: 9007199254740993n, n: 2n, xid: 42n, amount: '1.50', small: 7 });
    } finally {
      await pool.end();
    }
  });

  it('runs typed kysely queries on the pool', async () => {
    interface DB {
      widgets: { id: string; position: bigint };
    }
    const db = createKysely<DB>(createPool(database.url, logger));
    try {
      await sql`create table widgets (id text primary key, position bigint not null)`.execute(db);
      await db
        .insertInto('widgets')
        .values({ id: 'w1', position: 10n ** 17n })
        .execute();
      expect(await db.selectFrom('widgets').selectAll().execute()).toEqual([{ id: 'w1', position: 10n ** 17n }]);
    } finally {
      await db.destroy();
    }
  });

  it('has a readiness check that fails when the database does not answer', async () => {
    const pool = createPool(database.url, logger);
    await expect(databaseReadinessCheck(pool).check()).resolves.toBeUndefined();
    await pool.end();
    const unreachable = createPool('postgres://postgres@127.0.0.1:1/none', logger);
    await expect(databaseReadinessCheck(unreachable).check()).rejects.toThrow();
    await unreachable.end();
  });
});

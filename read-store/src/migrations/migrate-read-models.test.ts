import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadModels } from '../read-models';
import { migrateReadModels } from './migrate-read-models';

describe('read-model migrations', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;

  beforeAll(async () => {
    database = await createTestDatabase('projector_migrate');
    db = createKysely<ReadModels>(createPool(database.url, createLogger({ level: 'silent' })));
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('creates the tables once, also when several processes migrate at the same time', async () => {
    await Promise.all([migrateReadModels(db), migrateReadModels(db), migrateReadModels(db)]);
    await migrateReadModels(db);
    const { rows } = await sql<{ table_name: string }>`
      select table_name from information_schema.tables
      where table_schema = 'public' and table_name not like 'read_model_migrations%'
      order by table_name`.execute(db);
    expect(rows.map((row) => row.table_name)).toEqual([
      'farm_fields',
      'farm_organizations',
      'farmers',
      'farms',
      'idempotency_keys',
      'index_reading_revisions',
      'index_readings',
      'index_sources',
      'policies',
      'policy_counts',
      'policy_evaluations',
      'policy_payouts',
      'projection_checkpoints',
      'webhook_deliveries',
      'webhook_delivery_attempts',
      'webhook_secrets',
      'webhook_targets',
      'webhooks',
    ]);
  });

  it('stores positions beyond the bigint range without loss', async () => {
    const beyondBigint = (2n ** 64n - 1n).toString();
    await db
      .insertInto('projection_checkpoints')
      .values({ name: 'wide', commit_position: beyondBigint, prepare_position: '7', updated_at: new Date() })
      .execute();
    const row = await db.selectFrom('projection_checkpoints').selectAll().where('name', '=', 'wide').executeTakeFirst();
    expect(row?.commit_position).toBe(beyondBigint);
  });
});

import { randomUUID } from 'node:crypto';
import { createPostgresEventStore, migrateEventStore, readStoredEvents } from '@cropcover/eventstore';
import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { leafEnvelopeOf } from '@cropcover/verifiable-log';
import { type Kysely, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadModels } from '../read-models';
import { registryReadModels } from './0001-registry-read-models';
import { indexReadings } from './0002-index-readings';
import { policyReadModels } from './0003-policy-read-models';
import { idempotencyKeys } from './0004-idempotency-keys';
import { webhookTables } from './0005-webhooks';
import { webhookTargetPositions } from './0006-webhook-target-positions';
import { idempotencyKeyScope } from './0007-idempotency-key-scope';
import { readingsBySource } from './0008-readings-by-source';
import { indexSources } from './0009-index-sources';
import { evaluationCoverage } from './0010-evaluation-coverage';
import { migrateReadModels, readModelMigrations } from './migrate-read-models';

const BEFORE_SOURCES = {
  '0001-registry-read-models': registryReadModels,
  '0002-index-readings': indexReadings,
  '0003-policy-read-models': policyReadModels,
  '0004-idempotency-keys': idempotencyKeys,
  '0005-webhooks': webhookTables,
  '0006-webhook-target-positions': webhookTargetPositions,
  '0007-idempotency-key-scope': idempotencyKeyScope,
};

const BEFORE_FINALITY = {
  ...BEFORE_SOURCES,
  '0008-readings-by-source': readingsBySource,
  '0009-index-sources': indexSources,
  '0010-evaluation-coverage': evaluationCoverage,
};

/** The read models as they stood before readings had sources: migrations 0001 to 0007, in the same
 *  bookkeeping tables, so migrateReadModels then runs 0008 onwards on them. */
const migrateBeforeSources = (db: Kysely<ReadModels>): Promise<void> => migrateOnly(db, BEFORE_SOURCES);

/** The given migrations only, in the same bookkeeping tables as migrateReadModels. */
const migrateOnly = async (db: Kysely<ReadModels>, migrations: Record<string, Migration>): Promise<void> => {
  const migrator = new Migrator({
    db,
    provider: {
      getMigrations: async () => migrations,
    },
    migrationTableName: 'read_model_migrations',
    migrationLockTableName: 'read_model_migrations_lock',
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
};

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
        and table_name not like 'legacy%'
      order by table_name`.execute(db);
    expect(rows.map((row) => row.table_name)).toEqual([
      'audit_checkpoint_sink_status',
      'audit_checkpoints',
      'audit_leaves',
      'audit_log_identity',
      'audit_signing_keys',
      'audit_tree',
      'climatologies',
      'climatology_normals',
      'climatology_requests',
      'climatology_runs',
      'farm_fields',
      'farm_organizations',
      'farmer_keys',
      'farmers',
      'farms',
      'idempotency_keys',
      'index_cells_of_interest',
      'index_file_ingestions',
      'index_reading_revisions',
      'index_reading_versions',
      'index_readings',
      'index_source_areas_of_interest',
      'index_source_units',
      'index_sources',
      'policies',
      'policy_counts',
      'policy_evaluations',
      'policy_monitor_days',
      'policy_monitor_rounds',
      'policy_payouts',
      'policy_snapshots',
      'portfolio_backtest_requests',
      'portfolio_backtest_runs',
      'product_backtest_locations',
      'product_backtest_requests',
      'product_backtest_runs',
      'product_versions',
      'programme_capacities',
      'programme_policies',
      'programme_zone_exposure',
      'programme_zone_peril_exposure',
      'programmes',
      'projection_checkpoints',
      'reinsurance_ledger',
      'treaties',
      'webhook_breach_positions',
      'webhook_deliveries',
      'webhook_delivery_attempts',
      'webhook_secrets',
      'webhook_targets',
      'webhooks',
    ]);
  });

  it('takes migrations numbered below ones it already ran, as issues land out of order', async () => {
    // Stop 26 landed 0001–0017 and 0030–0033; 0018–0026 landed after it.
    const landed = await createTestDatabase('projector_migrate_landed');
    const landedDb = createKysely<ReadModels>(createPool(landed.url, createLogger({ level: 'silent' })));
    try {
      const stop26 = Object.fromEntries(
        Object.entries(readModelMigrations).filter(([name]) => name < '0018' || (name >= '0030' && name <= '0033')),
      );
      await migrateOnly(landedDb, stop26);
      await migrateReadModels(landedDb);
      const ran = await sql<{ name: string }>`select name from read_model_migrations order by name`.execute(landedDb);
      expect(ran.rows.map((row) => row.name)).toEqual(Object.keys(readModelMigrations).sort());
    } finally {
      await landedDb.destroy();
      await landed.drop();
    }
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

describe('migration 0008: readings by source', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;

  beforeAll(async () => {
    database = await createTestDatabase('migrate_readings_by_source');
    db = createKysely<ReadModels>(createPool(database.url, createLogger({ level: 'silent' })));
    await migrateBeforeSources(db);
    const policy = (policyId: string, organizationId: string, farmId: string, fieldId: string) => sql`
      insert into policies (policy_id, organization_id, environment, farm_id, field_id, sum_insured_minor, currency,
        premium_minor, perils, status, issued_at, term_start, term_end, platform_version, aggregate, stream_revision)
      values (${policyId}, ${organizationId}, 'sandbox', ${farmId}, ${fieldId}, 100000, 'USD', 5000,
        array['flood'], 'active', '2026-03-01T00:00:00Z', '2026-03-01', '2026-08-31', '1.0.0', '{}'::jsonb, 0)`;
    // Two organizations insure farm-1/north (one of them twice); farm-1/south is insured by none.
    await policy('p-a1', 'org-a', 'farm-1', 'north').execute(db);
    await policy('p-a2', 'org-a', 'farm-1', 'north').execute(db);
    await policy('p-b', 'org-b', 'farm-1', 'north').execute(db);
    await policy('p-c', 'org-c', 'farm-2', 'north').execute(db);
    await sql`
      insert into index_readings (farm_id, field_id, "index", "date", "value", source, revision, recorded_at)
      values ('farm-1', 'north', 'rainfall_mm', '2026-03-02', 12.5, 'gauge', 2, '2026-03-03T06:00:00Z'),
             ('farm-1', 'south', 'rainfall_mm', '2026-03-02', 40, null, 1, '2026-03-03T06:00:00Z')`.execute(db);
    await sql`
      insert into index_reading_revisions
        (farm_id, field_id, "index", "date", revision, "value", source, recorded_at, replaced_at)
      values ('farm-1', 'north', 'rainfall_mm', '2026-03-02', 1, 10, 'gauge', '2026-03-02T06:00:00Z',
              '2026-03-03T06:00:00Z')`.execute(db);
    await migrateReadModels(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('copies an old reading into the field source of each organization holding a policy on that field', async () => {
    const readings = await db
      .selectFrom('index_readings')
      .select((eb) => [
        'source_id',
        'location',
        'index',
        sql<string>`to_char(${eb.ref('date')}, 'YYYY-MM-DD')`.as('date'),
        'value',
        'note',
        'revision',
        'recorded_by',
      ])
      .orderBy('source_id')
      .execute();
    const copied = { location: 'farm-1/north', index: 'rainfall_mm', date: '2026-03-02', value: 12.5, note: 'gauge' };
    // Once per organization, not per policy; the unpolicied field and farm-2 get nothing; no writer is known.
    expect(readings).toEqual([
      { source_id: 'organization-fields:org-a', ...copied, revision: 2, recorded_by: null },
      { source_id: 'organization-fields:org-b', ...copied, revision: 2, recorded_by: null },
    ]);
    const revisions = await db
      .selectFrom('index_reading_revisions')
      .select(['source_id', 'location', 'revision', 'value', 'note'])
      .orderBy('source_id')
      .execute();
    expect(revisions).toEqual([
      { source_id: 'organization-fields:org-a', location: 'farm-1/north', revision: 1, value: 10, note: 'gauge' },
      { source_id: 'organization-fields:org-b', location: 'farm-1/north', revision: 1, value: 10, note: 'gauge' },
    ]);
  });

  it('keeps every old reading and revision in the legacy tables', async () => {
    const { rows: legacy } = await sql<{ farm_id: string; field_id: string; value: number; revision: number }>`
      select farm_id, field_id, "value", revision from legacy_index_readings order by field_id`.execute(db);
    expect(legacy).toEqual([
      { farm_id: 'farm-1', field_id: 'north', value: 12.5, revision: 2 },
      { farm_id: 'farm-1', field_id: 'south', value: 40, revision: 1 },
    ]);
    const { rows: legacyRevisions } = await sql<{ value: number; revision: number }>`
      select "value", revision from legacy_index_reading_revisions`.execute(db);
    expect(legacyRevisions).toEqual([{ value: 10, revision: 1 }]);
  });
});

describe('migration 0011: payout finality', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;

  beforeAll(async () => {
    database = await createTestDatabase('migrate_payout_finality');
    db = createKysely<ReadModels>(createPool(database.url, createLogger({ level: 'silent' })));
    await migrateOnly(db, BEFORE_FINALITY);
    // A row whose aggregate predates what each peril's breach was worth and when the policy closed.
    await sql`
      insert into policies (policy_id, organization_id, environment, farm_id, field_id, sum_insured_minor, currency,
        premium_minor, perils, status, issued_at, term_start, term_end, platform_version, aggregate, stream_revision)
      values ('p-old', 'org-a', 'sandbox', 'farm-1', 'north', 100000, 'USD', 5000, array['flood'], 'claimed',
        '2026-03-01T00:00:00Z', '2026-03-01', '2026-08-31', '1.0.0', '{}'::jsonb, 3)`.execute(db);
    await sql`
      insert into projection_checkpoints (name, commit_position, prepare_position, updated_at)
      values ('policies', 10, 10, now()), ('farms', 10, 10, now())`.execute(db);
    await migrateReadModels(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('replays the policies projection from the log: its rows and checkpoint go, other projections stay', async () => {
    expect(await db.selectFrom('policies').selectAll().execute()).toEqual([]);
    const checkpoints = await db.selectFrom('projection_checkpoints').select('name').execute();
    expect(checkpoints.map((row) => row.name)).toEqual(['farms']);
  });

  it('adds the overpayment of each history item, empty unless one was recorded', async () => {
    const columns = await sql<{ column_name: string }>`
      select column_name from information_schema.columns
      where table_name = 'policy_evaluations' and column_name like 'overpayment_%' order by column_name`.execute(db);
    expect(columns.rows.map((row) => row.column_name)).toEqual([
      'overpayment_currency',
      'overpayment_due_minor',
      'overpayment_paid_minor',
      'overpayment_recorded_at',
    ]);
  });
});

describe('migration 0040: the owner of each policy', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;

  beforeAll(async () => {
    database = await createTestDatabase('migrate_policy_owner');
    db = createKysely<ReadModels>(createPool(database.url, createLogger({ level: 'silent' })));
    await migrateOnly(db, Object.fromEntries(Object.entries(readModelMigrations).filter(([name]) => name < '0040')));
    // One policy issued with its owner named, one issued before sealing named owners.
    await sql`
      insert into policies (policy_id, organization_id, environment, farm_id, field_id, sum_insured_minor, currency,
        premium_minor, perils, status, issued_at, term_start, term_end, platform_version, aggregate, stream_revision)
      select policy_id, 'org-a', 'sandbox', 'farm-1', 'north', 100000, 'USD', 5000, array['flood'], 'active',
        '2026-03-01T00:00:00Z', '2026-03-01', '2026-08-31', '1.0.0', aggregate, 0
      from (values ('p-owned', '{"issued": {"owner_farmer_id": "farmer-1"}}'::jsonb),
                   ('p-unowned', '{"issued": {}}'::jsonb)) as rows(policy_id, aggregate)`.execute(db);
    await migrateReadModels(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('fills the owner of the policies kept from their aggregates, none where the policy names none', async () => {
    const rows = await db
      .selectFrom('policies')
      .select(['policy_id', 'owner_farmer_id'])
      .orderBy('policy_id')
      .execute();
    expect(rows).toEqual([
      { policy_id: 'p-owned', owner_farmer_id: 'farmer-1' },
      { policy_id: 'p-unowned', owner_farmer_id: null },
    ]);
  });
});

describe('migration 0090: the owner of each policy snapshot', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;

  beforeAll(async () => {
    database = await createTestDatabase('migrate_snapshot_owner');
    db = createKysely<ReadModels>(createPool(database.url, createLogger({ level: 'silent' })));
    await migrateOnly(db, Object.fromEntries(Object.entries(readModelMigrations).filter(([name]) => name < '0090')));
    // A snapshot of a policy issued with its owner named, one of a policy issued before sealing named owners.
    await sql`
      insert into policy_snapshots
        (policy_id, stream_revision, position_commit, position_prepare, state_version, state, digest)
      select policy_id, 3, 10, 10, 5, state, 'sha256:0'
      from (values ('p-owned', '{"status":"active","issued":{"owner_farmer_id":"farmer-1"}}'),
                   ('p-unowned', '{"status":"active","issued":{}}')) as rows(policy_id, state)`.execute(db);
    await migrateReadModels(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('fills the owner of the snapshots kept from their state, none where the policy names none', async () => {
    const rows = await db
      .selectFrom('policy_snapshots')
      .select(['policy_id', 'owner_farmer_id'])
      .orderBy('policy_id')
      .execute();
    expect(rows).toEqual([
      { policy_id: 'p-owned', owner_farmer_id: 'farmer-1' },
      { policy_id: 'p-unowned', owner_farmer_id: null },
    ]);
  });
});

describe('migration 0041: the envelope of each leaf', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let db: Kysely<ReadModels>;

  beforeAll(async () => {
    database = await createTestDatabase('migrate_leaf_envelopes');
    pool = createPool(database.url, createLogger({ level: 'silent' }));
    db = createKysely<ReadModels>(pool);
    await migrateEventStore(pool);
    await migrateOnly(db, Object.fromEntries(Object.entries(readModelMigrations).filter(([name]) => name < '0041')));
    await createPostgresEventStore({ pool }).append(
      'policy-kept',
      [
        {
          type: 'PolicyIssued',
          data: { a: 1 },
          metadata: {
            event_id: randomUUID(),
            occurred_at: '2026-03-01T00:00:00.000Z',
            actor: 'underwriter',
            organization_id: 'org-a',
            correlation_id: randomUUID(),
            causation_id: null,
            schema_version: 1,
            platform_version: '1.0.0',
          },
        },
      ],
      'no_stream',
    );
    // Two leaves the integrator took: one whose event the log still holds, one whose row is already gone.
    await sql`insert into audit_leaves (leaf_index, position_commit, position_prepare, stream_id, stream_revision)
      values (0, 1, 1, 'policy-kept', 0), (1, 2, 2, 'policy-gone', 0)`.execute(db);
    await migrateReadModels(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('keeps the envelope of each leaf whose event the log still holds, and none of one already gone', async () => {
    const [event] = await readStoredEvents(pool, 'policy-kept');
    const rows = await db.selectFrom('audit_leaves').selectAll().orderBy('leaf_index').execute();
    const kept = rows[0]!;
    const envelope = {
      v: 1,
      stream: 'policy-kept',
      rev: 0,
      eventId: kept.event_id!,
      type: kept.event_type!,
      prev: kept.prev!.toString('base64'),
      dataHash: kept.data_hash!.toString('base64'),
      metaHash: kept.metadata_hash!.toString('base64'),
    };
    expect(envelope).toEqual(leafEnvelopeOf(event!));
    expect(rows[1]).toMatchObject({ event_id: null, event_type: null, prev: null, data_hash: null });
  });
});

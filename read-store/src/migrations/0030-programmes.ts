import { type Kysely, sql } from 'kysely';

// Programmes and their capacity rules (SPEC §7, issue 19), rebuilt from `programme-<id>`. Numbered 0030:
// 0018–0029 belong to changes made alongside this one.
export const programmes = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('programmes')
      .addColumn('programme_id', 'text', (column) => column.primaryKey())
      .addColumn('organization_id', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('currency', 'text', (column) => column.notNull())
      .addColumn('is_default', 'boolean', (column) => column.notNull())
      .addColumn('aggregate_limit_minor', 'bigint')
      .addColumn('zone_default_minor', 'bigint')
      .addColumn('policies', 'integer', (column) => column.notNull())
      .addColumn('sum_insured_minor', 'bigint', (column) => column.notNull())
      .addColumn('premium_minor', 'bigint', (column) => column.notNull())
      .addColumn('created_at', 'timestamptz', (column) => column.notNull())
      .addColumn('updated_at', 'timestamptz', (column) => column.notNull())
      .addColumn('stream_revision', 'integer', (column) => column.notNull())
      .execute();
    await sql`create index programmes_organization_idx on programmes (organization_id, created_at desc, programme_id)`.execute(
      db,
    );
    await db.schema
      .createTable('programme_capacities')
      .addColumn('programme_id', 'text', (column) => column.notNull())
      .addColumn('source_id', 'text', (column) => column.notNull())
      .addColumn('location', 'text', (column) => column.notNull())
      .addColumn('peril', 'text', (column) => column.notNull())
      .addColumn('capacity_minor', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('programme_capacities_pk', ['programme_id', 'source_id', 'location', 'peril'])
      .execute();
  },
};

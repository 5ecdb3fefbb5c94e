import { type Kysely, sql } from 'kysely';

// Treaties bound to programmes, with what their entries add up to (SPEC §7 "Reinsurance").
export const treaties = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('treaties')
      .addColumn('treaty_id', 'text', (column) => column.primaryKey())
      .addColumn('programme_id', 'text', (column) => column.notNull())
      .addColumn('organization_id', 'text', (column) => column.notNull())
      .addColumn('reinsurer_organization_id', 'text')
      .addColumn('type', 'text', (column) => column.notNull())
      .addColumn('terms', 'jsonb', (column) => column.notNull())
      .addColumn('period_from', 'date', (column) => column.notNull())
      .addColumn('period_to', 'date', (column) => column.notNull())
      .addColumn('inurance_order', 'integer', (column) => column.notNull())
      .addColumn('bound_at', 'timestamptz', (column) => column.notNull())
      .addColumn('ceded_premium_minor', 'bigint', (column) => column.notNull())
      .addColumn('ceding_commission_minor', 'bigint', (column) => column.notNull())
      .addColumn('recoveries_minor', 'bigint', (column) => column.notNull())
      .addColumn('stream_revision', 'integer', (column) => column.notNull())
      .execute();
    await sql`create index treaties_programme_idx on treaties (programme_id, inurance_order)`.execute(db);
    await sql`create index treaties_reinsurer_idx on treaties (reinsurer_organization_id, programme_id)`.execute(db);
  },
};

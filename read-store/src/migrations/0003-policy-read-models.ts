import { type Kysely, sql } from 'kysely';

// Policies, their counts, evaluation history and payouts. The list indexes lead with organization_id (a
// caller only ever sees its own organization) and end in the list order (issued_at desc, policy_id), so a
// page is the first rows of an index range; they INCLUDE the filter columns so the rows a deep page skips
// are read from the index alone.
export const policyReadModels = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('policies')
      .addColumn('policy_id', 'text', (column) => column.primaryKey())
      .addColumn('organization_id', 'text', (column) => column.notNull())
      .addColumn('environment', 'text', (column) => column.notNull())
      .addColumn('farm_id', 'text', (column) => column.notNull())
      .addColumn('field_id', 'text', (column) => column.notNull())
      .addColumn('farm_name', 'text')
      .addColumn('field_name', 'text')
      .addColumn('field_area_ha', 'double precision')
      .addColumn('field_location', 'text')
      .addColumn('crop_type', 'text')
      .addColumn('sum_insured_minor', 'bigint', (column) => column.notNull())
      .addColumn('currency', 'text', (column) => column.notNull())
      .addColumn('premium_minor', 'bigint', (column) => column.notNull())
      .addColumn('perils', sql`text[]`, (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('issued_at', 'timestamptz', (column) => column.notNull())
      .addColumn('term_start', 'date', (column) => column.notNull())
      .addColumn('term_end', 'date', (column) => column.notNull())
      .addColumn('platform_version', 'text', (column) => column.notNull())
      .addColumn('next_monitoring_date', 'date')
      .addColumn('aggregate', 'jsonb', (column) => column.notNull())
      .addColumn('stream_revision', 'integer', (column) => column.notNull())
      .execute();
    await sql`create index policies_list_idx on policies
      (organization_id, issued_at desc, policy_id) include (status, farm_id, perils)`.execute(db);
    await sql`create index policies_status_list_idx on policies
      (organization_id, status, issued_at desc, policy_id) include (farm_id, perils)`.execute(db);
    await sql`create index policies_farm_list_idx on policies
      (organization_id, farm_id, issued_at desc, policy_id) include (status, perils)`.execute(db);
    await sql`create index policies_perils_idx on policies using gin (perils)`.execute(db);
    // The monitor's work list: only policies still monitored are in it.
    await sql`create index policies_monitoring_idx on policies (next_monitoring_date)
      where status in ('active', 'claimed')`.execute(db);

    await db.schema
      .createTable('policy_counts')
      .addColumn('organization_id', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('perils', sql`text[]`, (column) => column.notNull())
      .addColumn('policies', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('policy_counts_pkey', ['organization_id', 'status', 'perils'])
      .execute();

    await db.schema
      .createTable('policy_evaluations')
      .addColumn('evaluation_id', 'text', (column) => column.notNull())
      .addColumn('peril', 'text', (column) => column.notNull())
      .addColumn('policy_id', 'text', (column) => column.notNull())
      .addColumn('organization_id', 'text', (column) => column.notNull())
      .addColumn('trigger_index', 'text', (column) => column.notNull())
      .addColumn('observed_value', 'double precision', (column) => column.notNull())
      .addColumn('threshold', 'double precision', (column) => column.notNull())
      .addColumn('breached', 'boolean', (column) => column.notNull())
      .addColumn('severity', 'double precision', (column) => column.notNull())
      .addColumn('as_of', 'date', (column) => column.notNull())
      .addColumn('window_start', 'date', (column) => column.notNull())
      .addColumn('window_end', 'date', (column) => column.notNull())
      .addColumn('evaluated_at', 'timestamptz', (column) => column.notNull())
      .addColumn('payout_id', 'text')
      .addPrimaryKeyConstraint('policy_evaluations_pkey', ['evaluation_id', 'peril'])
      .execute();
    await sql`create index policy_evaluations_history_idx on policy_evaluations
      (policy_id, evaluated_at desc, peril)`.execute(db);

    await db.schema
      .createTable('policy_payouts')
      .addColumn('payout_id', 'text', (column) => column.primaryKey())
      .addColumn('policy_id', 'text', (column) => column.notNull())
      .addColumn('organization_id', 'text', (column) => column.notNull())
      .addColumn('peril', 'text', (column) => column.notNull())
      .addColumn('evaluation_id', 'text', (column) => column.notNull())
      .addColumn('amount_minor', 'bigint', (column) => column.notNull())
      .addColumn('currency', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull().check(sql`status in ('approved', 'settled')`))
      .addColumn('approved_at', 'timestamptz', (column) => column.notNull())
      .addColumn('settled_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('policy_payouts_policy_id_idx').on('policy_payouts').column('policy_id').execute();
  },
};

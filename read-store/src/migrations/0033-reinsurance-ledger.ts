import { type Kysely, sql } from 'kysely';

// The cession ledger (SPEC §7): one row per treaty per movement, in the order of the programme's
// reinsurance stream; listed per programme, per treaty or per policy.
export const reinsuranceLedger = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('reinsurance_ledger')
      .addColumn('entry_id', 'text', (column) => column.primaryKey())
      .addColumn('programme_id', 'text', (column) => column.notNull())
      .addColumn('stream_revision', 'integer', (column) => column.notNull())
      .addColumn('treaty_id', 'text', (column) => column.notNull())
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('source_event', 'text', (column) => column.notNull())
      .addColumn('policy_id', 'text')
      .addColumn('source_id', 'text')
      .addColumn('location', 'text')
      .addColumn('peril', 'text')
      .addColumn('cat_event', 'text')
      .addColumn('gross_minor', 'bigint', (column) => column.notNull())
      .addColumn('cumulative_gross_minor', 'bigint', (column) => column.notNull())
      .addColumn('ceded_minor', 'bigint', (column) => column.notNull())
      .addColumn('cumulative_ceded_minor', 'bigint', (column) => column.notNull())
      .addColumn('net_minor', 'bigint', (column) => column.notNull())
      .addColumn('recorded_at', 'timestamptz', (column) => column.notNull())
      .execute();
    await sql`create index reinsurance_ledger_programme_idx on reinsurance_ledger (programme_id, stream_revision)`.execute(
      db,
    );
    await sql`create index reinsurance_ledger_treaty_idx on reinsurance_ledger (treaty_id, stream_revision)`.execute(
      db,
    );
    await sql`create index reinsurance_ledger_policy_idx on reinsurance_ledger (policy_id, programme_id, stream_revision)`.execute(
      db,
    );
  },
};

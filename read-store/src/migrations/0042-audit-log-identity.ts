import { type Kysely, sql } from 'kysely';

// The audit log's identity (issue 32, SPEC §10): an id created with the log, carried in the origin line of
// every checkpoint signed from then on, so a checkpoint sink is kept per log and one holding another log's
// checkpoints is told apart. A log that existed before gets its id here; the checkpoints it had signed keep
// the origin they were signed with (`legacy_through_size`: the largest of them). And the sink's health, as
// the integrator last found it, for `/readyz` in every process.
export const auditLogIdentity = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('audit_log_identity')
      .addColumn('singleton', 'boolean', (column) => column.primaryKey().defaultTo(true).check(sql`singleton`))
      .addColumn('log_id', 'uuid', (column) => column.notNull())
      .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
      .addColumn('legacy_through_size', 'bigint', (column) => column.notNull())
      .execute();
    await sql`insert into audit_log_identity (log_id, legacy_through_size)
      select gen_random_uuid(), coalesce(max(tree_size), 0) from audit_checkpoints`.execute(db);
    await db.schema
      .createTable('audit_checkpoint_sink_status')
      .addColumn('singleton', 'boolean', (column) => column.primaryKey().defaultTo(true).check(sql`singleton`))
      .addColumn('failing_since', 'timestamptz')
      .addColumn('reason', 'text')
      .addColumn('checked_at', 'timestamptz', (column) => column.notNull())
      .execute();
  },
};

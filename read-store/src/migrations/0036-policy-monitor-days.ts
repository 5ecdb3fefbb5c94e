import type { Kysely } from 'kysely';

// The monitor records a daily evaluation in the log only when its conclusion changes (SPEC §7 "What the
// log records"). Every monitored day is kept here instead, recorded or not: what each peril observed and
// from which readings, and the stream revision it was decided on, so the audit can replay it.
export const policyMonitorDays = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('policy_monitor_days')
      .addColumn('policy_id', 'text', (column) => column.notNull())
      .addColumn('checked_on', 'date', (column) => column.notNull())
      .addColumn('evaluation_id', 'text', (column) => column.notNull())
      .addColumn('evaluated_at', 'timestamptz', (column) => column.notNull())
      .addColumn('stream_revision', 'integer', (column) => column.notNull())
      .addColumn('recorded', 'boolean', (column) => column.notNull())
      .addColumn('perils', 'jsonb', (column) => column.notNull())
      .addPrimaryKeyConstraint('policy_monitor_days_pkey', ['policy_id', 'checked_on'])
      .execute();
  },
};

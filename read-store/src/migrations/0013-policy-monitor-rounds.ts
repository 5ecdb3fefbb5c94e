import type { Kysely } from 'kysely';

// The monitor claimed a policy with an advisory lock held in an open transaction while it evaluated it,
// one policy at a time. A claim is now a lease on a batch, committed before the work; and the day of the
// last round is kept beside it, since an evaluation that changed nothing appends nothing to the stream.
export const policyMonitorRounds = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('policy_monitor_rounds')
      .addColumn('policy_id', 'text', (column) => column.primaryKey())
      .addColumn('checked_on', 'date')
      .addColumn('lease_id', 'uuid')
      .addColumn('leased_until', 'timestamptz')
      .execute();
  },
};

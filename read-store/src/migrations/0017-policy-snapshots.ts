import type { Kysely } from 'kysely';

// Loading a policy read its whole stream, which grows with every recorded evaluation: the monitor now
// keeps each policy's state as of a revision, and reads only the events after it.
export const policySnapshots = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('policy_snapshots')
      .addColumn('policy_id', 'text', (column) => column.primaryKey())
      .addColumn('stream_revision', 'integer', (column) => column.notNull())
      .addColumn('position_commit', 'numeric(20, 0)', (column) => column.notNull())
      .addColumn('position_prepare', 'numeric(20, 0)', (column) => column.notNull())
      .addColumn('state_version', 'integer', (column) => column.notNull())
      .addColumn('state', 'text', (column) => column.notNull())
      .addColumn('digest', 'text', (column) => column.notNull())
      .execute();
  },
};

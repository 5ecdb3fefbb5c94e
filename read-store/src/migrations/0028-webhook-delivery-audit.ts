import { type Kysely, sql } from 'kysely';

// A trigger.breached delivery waits until a signed checkpoint covers its breach, then carries the inclusion
// proof (SPEC §7 Audit). The delivery keeps where its breach is in the log, to find the breach's leaf;
// rows recorded before this wait for nothing.
export const webhookDeliveryAudit = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('webhook_deliveries')
      .addColumn('awaiting_checkpoint', 'boolean', (column) => column.notNull().defaultTo(false))
      .addColumn('breach_commit_position', 'numeric(20, 0)')
      .addColumn('breach_prepare_position', 'numeric(20, 0)')
      .execute();
    await sql`create index webhook_deliveries_awaiting_checkpoint_idx
      on webhook_deliveries (breach_commit_position, breach_prepare_position)
      where awaiting_checkpoint and status = 'pending'`.execute(db);
    // The leaf of an event at a log position: what the dispatcher looks a breach's leaf up by.
    await sql`create index audit_leaves_position_idx on audit_leaves (position_commit, position_prepare)`.execute(db);
  },
};

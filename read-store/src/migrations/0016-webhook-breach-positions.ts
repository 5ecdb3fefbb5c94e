import type { Kysely } from 'kysely';

// With Kafka, a breach message names its stream and revision but not its position in the log, which
// decides which subscriptions it goes to. The dispatcher's log reader notes each breach's position as
// it passes it, so the consumer finds a whole batch's positions in one query instead of reading the
// policy stream once per breach.
export const webhookBreachPositions = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('webhook_breach_positions')
      .addColumn('event_id', 'text', (column) => column.primaryKey())
      .addColumn('commit_position', 'numeric(20, 0)', (column) => column.notNull())
      .addColumn('prepare_position', 'numeric(20, 0)', (column) => column.notNull())
      .execute();
  },
};

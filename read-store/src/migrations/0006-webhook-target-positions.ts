import { type Kysely, sql } from 'kysely';

// Where each subscription was created in the log. When breaches come from Kafka rather than in log order
// with the subscription events, the dispatcher still gives a breach exactly the subscriptions created
// before it in the log. Subscriptions recorded before this column existed count as created at the start.
export const webhookTargetPositions = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('webhook_targets')
      .addColumn('created_commit_position', 'numeric(20, 0)', (column) => column.notNull().defaultTo(0))
      .addColumn('created_prepare_position', 'numeric(20, 0)', (column) => column.notNull().defaultTo(0))
      .execute();
    await sql`alter table webhook_targets alter column created_commit_position drop default,
      alter column created_prepare_position drop default`.execute(db);
  },
};

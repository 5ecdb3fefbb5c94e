import { type Kysely, sql } from 'kysely';

// Webhook subscriptions and their deliveries. `webhooks` is a read model (rebuilt from the log);
// `webhook_secrets` is written by the command API beside the log, never into it; `webhook_targets`,
// `webhook_deliveries` and `webhook_delivery_attempts` are the dispatcher's own state, which a rebuild
// of the read models must leave alone (rebuilding them would send every past breach again).
export const webhookTables = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('webhooks')
      .addColumn('webhook_id', 'text', (column) => column.primaryKey())
      .addColumn('organization_id', 'text', (column) => column.notNull())
      .addColumn('event_type', 'text', (column) => column.notNull())
      .addColumn('url', 'text', (column) => column.notNull())
      .addColumn('description', 'text')
      .addColumn('is_active', 'boolean', (column) => column.notNull())
      .addColumn('created_at', 'timestamptz', (column) => column.notNull())
      .execute();
    await sql`create index webhooks_list_idx on webhooks (organization_id, created_at desc, webhook_id)`.execute(db);

    await db.schema
      .createTable('webhook_secrets')
      .addColumn('webhook_id', 'text', (column) => column.primaryKey())
      .addColumn('secret', 'text', (column) => column.notNull())
      .addColumn('created_at', 'timestamptz', (column) => column.notNull())
      .execute();

    await db.schema
      .createTable('webhook_targets')
      .addColumn('webhook_id', 'text', (column) => column.primaryKey())
      .addColumn('organization_id', 'text', (column) => column.notNull())
      .addColumn('url', 'text', (column) => column.notNull())
      .addColumn('is_active', 'boolean', (column) => column.notNull())
      .execute();
    await sql`create index webhook_targets_organization_idx on webhook_targets (organization_id)
      where is_active`.execute(db);

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('event_id', 'text', (column) => column.notNull())
      .addColumn('webhook_id', 'text', (column) => column.notNull())
      .addColumn('policy_id', 'text', (column) => column.notNull())
      .addColumn('payload', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('attempt_count', 'integer', (column) => column.notNull())
      .addColumn('next_attempt_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (column) => column.notNull())
      .addPrimaryKeyConstraint('webhook_deliveries_pkey', ['event_id', 'webhook_id'])
      .execute();
    // The sender's work list holds only what is still to be sent.
    await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at)
      where status = 'pending'`.execute(db);
    await sql`create index webhook_deliveries_list_idx on webhook_deliveries
      (webhook_id, created_at desc, event_id)`.execute(db);

    await db.schema
      .createTable('webhook_delivery_attempts')
      .addColumn('event_id', 'text', (column) => column.notNull())
      .addColumn('webhook_id', 'text', (column) => column.notNull())
      .addColumn('attempt', 'integer', (column) => column.notNull())
      .addColumn('attempted_at', 'timestamptz', (column) => column.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('latency_ms', 'integer', (column) => column.notNull())
      .addColumn('error', 'text')
      .addPrimaryKeyConstraint('webhook_delivery_attempts_pkey', ['event_id', 'webhook_id', 'attempt'])
      .execute();
  },
};

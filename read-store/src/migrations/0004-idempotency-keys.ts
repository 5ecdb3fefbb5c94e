import type { Kysely } from 'kysely';

// Idempotency keys of the command API (SPEC §5). One row per (caller, key): the primary key is what
// lets exactly one of two concurrent first uses claim it (insert … on conflict do nothing). The index on
// created_at serves removing keys past their 24 h.
export const idempotencyKeys = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('caller', 'text', (column) => column.notNull())
      .addColumn('key', 'text', (column) => column.notNull())
      .addColumn('fingerprint', 'text', (column) => column.notNull())
      .addColumn('request', 'text', (column) => column.notNull())
      .addColumn('claim_id', 'text', (column) => column.notNull())
      .addColumn('created_at', 'timestamptz', (column) => column.notNull())
      .addColumn('response_status', 'integer')
      .addColumn('response_headers', 'jsonb')
      .addColumn('response_body', 'text')
      .addPrimaryKeyConstraint('idempotency_keys_pkey', ['caller', 'key'])
      .execute();
    await db.schema
      .createIndex('idempotency_keys_created_at_idx')
      .on('idempotency_keys')
      .column('created_at')
      .execute();
  },
};

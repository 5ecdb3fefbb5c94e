import type { Kysely } from 'kysely';

// Crypto-shredding of farmers' personal data (SPEC §6 erasure, issue 25): one data key per farmer,
// wrapped by a key-encryption key from configuration, kept here and never in the log. Erasure clears the
// key and keeps the row as a tombstone, so a later write can never mint a fresh key for an erased farmer.
export const farmerKeys = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('farmer_keys')
      .addColumn('farmer_id', 'text', (column) => column.primaryKey())
      .addColumn('kek_id', 'text')
      .addColumn('wrapped_key', 'bytea')
      .addColumn('created_at', 'timestamptz', (column) => column.notNull())
      .addColumn('erased_at', 'timestamptz')
      .execute();
  },
};

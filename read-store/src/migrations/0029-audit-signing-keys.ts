import type { Kysely } from 'kysely';

// The keys the audit log's checkpoints were signed with, and when each signed (SPEC §7 Audit: rotations
// published, `GET /audit/keys`).
export const auditSigningKeys = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('audit_signing_keys')
      .addColumn('vkey', 'text', (column) => column.primaryKey())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('key_id', 'text', (column) => column.notNull())
      .addColumn('valid_from', 'timestamptz', (column) => column.notNull())
      .addColumn('valid_to', 'timestamptz')
      .execute();
  },
};

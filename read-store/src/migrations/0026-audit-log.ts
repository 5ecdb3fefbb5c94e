import type { Kysely } from 'kysely';

// The tamper-evident log's tree and checkpoints (SPEC §7 Audit, issue 20).
export const auditLog = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('audit_leaves')
      .addColumn('leaf_index', 'bigint', (column) => column.primaryKey())
      .addColumn('position_commit', 'numeric(20, 0)', (column) => column.notNull())
      .addColumn('position_prepare', 'numeric(20, 0)', (column) => column.notNull())
      .addColumn('stream_id', 'text', (column) => column.notNull())
      .addColumn('stream_revision', 'integer', (column) => column.notNull())
      .addUniqueConstraint('audit_leaves_event_key', ['stream_id', 'stream_revision'])
      .execute();
    await db.schema
      .createTable('audit_tree')
      .addColumn('level', 'smallint', (column) => column.notNull())
      .addColumn('node_index', 'bigint', (column) => column.notNull())
      .addColumn('hash', 'bytea', (column) => column.notNull())
      .addPrimaryKeyConstraint('audit_tree_pk', ['level', 'node_index'])
      .execute();
    await db.schema
      .createTable('audit_checkpoints')
      .addColumn('tree_size', 'bigint', (column) => column.primaryKey())
      .addColumn('root', 'bytea', (column) => column.notNull())
      .addColumn('note', 'text', (column) => column.notNull())
      .addColumn('signed_at', 'timestamptz', (column) => column.notNull())
      .addColumn('published_at', 'timestamptz')
      .execute();
  },
};

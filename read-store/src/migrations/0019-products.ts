import { type Kysely, sql } from 'kysely';

// Products (TERM-SHEETS.md §2.1): one row per version of an organization's term sheet, rebuilt from the
// `product-<organization_id>.<product_id>` streams. Versions are immutable but for their status; an
// organization reads its own, by product then version.
export const products = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('product_versions')
      .addColumn('organization_id', 'text', (column) => column.notNull())
      .addColumn('product_id', 'text', (column) => column.notNull())
      .addColumn('version', 'integer', (column) => column.notNull())
      .addColumn('digest', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('sheet', 'jsonb', (column) => column.notNull().check(sql`jsonb_typeof(sheet) = 'object'`))
      .addColumn('registered_at', 'timestamptz', (column) => column.notNull())
      .addColumn('retired_at', 'timestamptz')
      .addPrimaryKeyConstraint('product_versions_pk', ['organization_id', 'product_id', 'version'])
      .execute();
  },
};

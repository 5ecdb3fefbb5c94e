import type { Kysely } from 'kysely';

// The unit areas of index sources (INDEX-DATA §2.4), a read model rebuilt from the
// `index_source_units-<source_id>` streams: listed per source by unit_id.
export const unitAreas = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('index_source_units')
      .addColumn('source_id', 'text', (column) => column.notNull())
      .addColumn('unit_id', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('polygon', 'jsonb', (column) => column.notNull())
      .addColumn('registered_at', 'timestamptz', (column) => column.notNull())
      .addPrimaryKeyConstraint('index_source_units_pkey', ['source_id', 'unit_id'])
      .execute();
  },
};

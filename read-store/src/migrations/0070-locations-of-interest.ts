import { type Kysely, sql } from 'kysely';

// Locations of interest (INDEX-DATA §2.2): the area a grid source's owner registers, the cells the source
// keeps readings for (each held once its history has been read from every file kept before it), and
// whether each ingestion kept every cell of its file or only those.
export const locationsOfInterest = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('index_source_areas_of_interest')
      .addColumn('source_id', 'text', (column) => column.primaryKey())
      .addColumn('area', 'jsonb', (column) => column.notNull())
      .addColumn('set_by', 'text', (column) => column.notNull())
      .addColumn('set_at', 'timestamptz', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('index_cells_of_interest')
      .addColumn('source_id', 'text', (column) => column.notNull())
      .addColumn('cell', 'text', (column) => column.notNull())
      .addColumn('since', 'timestamptz', (column) => column.notNull())
      .addColumn('held_at', 'timestamptz')
      .addPrimaryKeyConstraint('index_cells_of_interest_pkey', ['source_id', 'cell'])
      .execute();
    await sql`alter table index_file_ingestions add column kept text not null default 'every_cell'`.execute(db);
  },
};

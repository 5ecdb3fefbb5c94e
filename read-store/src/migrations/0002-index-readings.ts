import type { Kysely } from 'kysely';

// Index readings and the values they replaced. The primary key (farm, field, index, date) is also the
// path of every load: one field's readings of some indices over a date range come off it in order.
// The second index serves the listing of all of a field's indices by date.
export const indexReadings = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('index_readings')
      .addColumn('farm_id', 'text', (column) => column.notNull())
      .addColumn('field_id', 'text', (column) => column.notNull())
      .addColumn('index', 'text', (column) => column.notNull())
      .addColumn('date', 'date', (column) => column.notNull())
      .addColumn('value', 'double precision', (column) => column.notNull())
      .addColumn('source', 'text')
      .addColumn('revision', 'integer', (column) => column.notNull())
      .addColumn('recorded_at', 'timestamptz', (column) => column.notNull())
      .addPrimaryKeyConstraint('index_readings_pkey', ['farm_id', 'field_id', 'index', 'date'])
      .execute();
    await db.schema
      .createIndex('index_readings_field_date_idx')
      .on('index_readings')
      .columns(['farm_id', 'field_id', 'date', 'index'])
      .execute();

    await db.schema
      .createTable('index_reading_revisions')
      .addColumn('farm_id', 'text', (column) => column.notNull())
      .addColumn('field_id', 'text', (column) => column.notNull())
      .addColumn('index', 'text', (column) => column.notNull())
      .addColumn('date', 'date', (column) => column.notNull())
      .addColumn('revision', 'integer', (column) => column.notNull())
      .addColumn('value', 'double precision', (column) => column.notNull())
      .addColumn('source', 'text')
      .addColumn('recorded_at', 'timestamptz', (column) => column.notNull())
      .addColumn('replaced_at', 'timestamptz', (column) => column.notNull())
      .addPrimaryKeyConstraint('index_reading_revisions_pkey', ['farm_id', 'field_id', 'index', 'date', 'revision'])
      .execute();
  },
};

import { type Kysely, sql } from 'kysely';

// SPEC §7 Index data: readings belong to a source and a location (station, grid cell or field), not to a
// field, so one cell's series serves every field in it and only the source's owner moves it.
//
// Readings recorded before had no owner. Policies issued before read them all, and now read their own
// organization's field readings (the upcast in the policy's evolve), so each old reading is copied into
// the field source of every organization holding a policy on that field: those policies keep reading
// what they read. The old tables stay, renamed `legacy_*`, so nothing recorded is lost; readings on a
// field no policy covered are attributable only by hand from there.
export const readingsBySource = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table index_readings rename to legacy_index_readings`.execute(db);
    await sql`alter table legacy_index_readings rename constraint index_readings_pkey to legacy_index_readings_pkey`.execute(
      db,
    );
    await sql`alter index index_readings_field_date_idx rename to legacy_index_readings_field_date_idx`.execute(db);
    await sql`alter table index_reading_revisions rename to legacy_index_reading_revisions`.execute(db);
    await sql`alter table legacy_index_reading_revisions
      rename constraint index_reading_revisions_pkey to legacy_index_reading_revisions_pkey`.execute(db);

    await db.schema
      .createTable('index_readings')
      .addColumn('source_id', 'text', (column) => column.notNull())
      .addColumn('location', 'text', (column) => column.notNull())
      .addColumn('index', 'text', (column) => column.notNull())
      .addColumn('date', 'date', (column) => column.notNull())
      .addColumn('value', 'double precision', (column) => column.notNull())
      .addColumn('note', 'text')
      .addColumn('revision', 'integer', (column) => column.notNull())
      .addColumn('recorded_at', 'timestamptz', (column) => column.notNull())
      .addColumn('recorded_by', 'text')
      .addPrimaryKeyConstraint('index_readings_pkey', ['source_id', 'location', 'index', 'date'])
      .execute();
    // The listing of all of a location's indices by date.
    await db.schema
      .createIndex('index_readings_location_date_idx')
      .on('index_readings')
      .columns(['source_id', 'location', 'date', 'index'])
      .execute();
    await db.schema
      .createTable('index_reading_revisions')
      .addColumn('source_id', 'text', (column) => column.notNull())
      .addColumn('location', 'text', (column) => column.notNull())
      .addColumn('index', 'text', (column) => column.notNull())
      .addColumn('date', 'date', (column) => column.notNull())
      .addColumn('revision', 'integer', (column) => column.notNull())
      .addColumn('value', 'double precision', (column) => column.notNull())
      .addColumn('note', 'text')
      .addColumn('recorded_at', 'timestamptz', (column) => column.notNull())
      .addColumn('recorded_by', 'text')
      .addColumn('replaced_at', 'timestamptz', (column) => column.notNull())
      .addPrimaryKeyConstraint('index_reading_revisions_pkey', ['source_id', 'location', 'index', 'date', 'revision'])
      .execute();

    await sql`
      insert into index_readings (source_id, location, "index", "date", "value", note, revision, recorded_at)
      select 'organization-fields:' || holder.organization_id, old.farm_id || '/' || old.field_id,
             old."index", old."date", old."value", old.source, old.revision, old.recorded_at
      from legacy_index_readings old
      join (select distinct organization_id, farm_id, field_id from policies) holder using (farm_id, field_id)`.execute(
      db,
    );
    await sql`
      insert into index_reading_revisions
        (source_id, location, "index", "date", revision, "value", note, recorded_at, replaced_at)
      select 'organization-fields:' || holder.organization_id, old.farm_id || '/' || old.field_id,
             old."index", old."date", old.revision, old."value", old.source, old.recorded_at, old.replaced_at
      from legacy_index_reading_revisions old
      join (select distinct organization_id, farm_id, field_id from policies) holder using (farm_id, field_id)`.execute(
      db,
    );
  },
};

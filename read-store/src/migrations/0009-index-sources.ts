import { type Kysely, sql } from 'kysely';

// Registered index sources (SPEC §7 Index data), a read model rebuilt from the `index_source-<id>`
// streams. Lists are few and read by every organization, newest first, filtered by index, kind or owner.
// Numbered 0009: 0008 belongs to a change made alongside this one.
export const indexSources = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('index_sources')
      .addColumn('source_id', 'text', (column) => column.primaryKey())
      .addColumn('organization_id', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('index', 'text', (column) => column.notNull())
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('stations', 'jsonb', (column) => column.check(sql`jsonb_typeof(stations) = 'array'`))
      .addColumn('radius_km', 'double precision')
      .addColumn('resolution_deg', 'double precision')
      .addColumn('registered_at', 'timestamptz', (column) => column.notNull())
      .execute();
    await sql`create index index_sources_list_idx on index_sources (registered_at desc, source_id)`.execute(db);
    await sql`create index index_sources_organization_idx on index_sources
      (organization_id, registered_at desc, source_id)`.execute(db);
  },
};

import { type Kysely, sql } from 'kysely';

// Processes cache a location's reading history (quote and issue read 30 years of it) and must never price
// from a stale one once a write is acknowledged, whichever process or instance made it. Each (source,
// location) gets a version, changed by triggers in the very transaction that changes its readings, so
// one cheap read tells a cache whether what it holds is current; the triggers cover every writer (the
// API, the CSV import, a hand-run fix). Versions come from one sequence, so a value is never given
// twice, not even after a truncate: a cache only compares for equality.
export const indexReadingVersions = {
  async up(db: Kysely<unknown>): Promise<void> {
    // Writers of readings (an older process during a rolling deploy) wait until the triggers exist: a
    // reading written between the backfill below and the triggers would leave its location without a
    // version, which caches read as "no readings". The lock lasts until the migration commits.
    await sql`lock table index_readings in share row exclusive mode`.execute(db);
    await sql`create sequence index_reading_version_seq`.execute(db);
    await db.schema
      .createTable('index_reading_versions')
      .addColumn('source_id', 'text', (column) => column.notNull())
      .addColumn('location', 'text', (column) => column.notNull())
      .addColumn('version', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('index_reading_versions_pkey', ['source_id', 'location'])
      .execute();
    // Every location already holding readings gets a version, so a truncate (below) reaches them all.
    await sql`
      insert into index_reading_versions (source_id, location, version)
      select source_id, location, nextval('index_reading_version_seq')
      from (select distinct source_id, location from index_readings) as series`.execute(db);
    // One new version per location a statement touched, however many of its readings it wrote. A
    // statement's branch names only the transition tables its trigger has (plpgsql plans a statement
    // when it first runs it).
    const bump = (series: string) => `
      insert into index_reading_versions (source_id, location, version)
      select source_id, location, nextval('index_reading_version_seq') from (${series}) as series
      on conflict (source_id, location) do update set version = excluded.version;`;
    await sql
      .raw(`
      create function bump_index_reading_versions() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${bump('select distinct source_id, location from changed_readings')}
        elsif tg_op = 'UPDATE' then
          ${bump('select source_id, location from changed_readings union select source_id, location from replaced_readings')}
        else
          ${bump('select distinct source_id, location from replaced_readings')}
        end if;
        return null;
      end $$`)
      .execute(db);
    for (const [event, referencing] of [
      ['insert', 'new table as changed_readings'],
      ['update', 'new table as changed_readings old table as replaced_readings'],
      ['delete', 'old table as replaced_readings'],
    ] as const) {
      await sql
        .raw(`create trigger index_readings_${event}_version after ${event} on index_readings
              referencing ${referencing} for each statement execute function bump_index_reading_versions()`)
        .execute(db);
    }
    await sql`
      create function bump_all_index_reading_versions() returns trigger language plpgsql as $$
      begin
        update index_reading_versions set version = nextval('index_reading_version_seq');
        return null;
      end $$`.execute(db);
    await sql`
      create trigger index_readings_truncate_version after truncate on index_readings
      for each statement execute function bump_all_index_reading_versions()`.execute(db);
  },
};

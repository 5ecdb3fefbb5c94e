import { type Kysely, sql } from 'kysely';

// INDEX-DATA.md §2.1 and §4: files ingested whole, each kept under its SHA-256, and every value they write
// carrying the file's digest and the release's label (prelim, final) into its revisions.
export const indexFiles = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const table of ['index_readings', 'index_reading_revisions']) {
      await sql`alter table ${sql.table(table)} add column label text, add column file_sha256 text`.execute(db);
    }
    await sql`create table index_file_ingestions (
      ingestion_id text primary key,
      source_id text not null,
      sha256 text not null,
      content_type text not null,
      label text,
      dates text[],
      variable text,
      bytes bigint not null,
      status text not null check (status in ('queued', 'running', 'succeeded', 'failed')),
      periods integer not null default 0,
      locations integer not null default 0,
      readings_written integer not null default 0,
      revisions_written integer not null default 0,
      missing integer not null default 0,
      error jsonb,
      requested_by text not null,
      received_at timestamptz not null,
      finished_at timestamptz
    )`.execute(db);
    // One live ingestion per file and source: the same bytes again answer it. A failed one is no answer.
    await sql`create unique index index_file_ingestions_file_idx on index_file_ingestions (source_id, sha256)
      where status <> 'failed'`.execute(db);
    await sql`create index index_file_ingestions_source_idx on index_file_ingestions (source_id, received_at)`.execute(
      db,
    );
  },
};

import { type Kysely, sql } from 'kysely';

// An ingestion is held under a lease its process renews while it runs: one whose lease ran out (its
// process stopped or died) is taken up again from the kept file, or failed with its reason, never left
// `queued` or `running` forever.
export const indexFileIngestionLeases = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table index_file_ingestions
      add column lease_id text,
      add column leased_until timestamptz,
      add column attempts integer not null default 0`.execute(db);
    await sql`create index index_file_ingestions_unfinished_idx on index_file_ingestions (leased_until)
      where status in ('queued', 'running')`.execute(db);
  },
};

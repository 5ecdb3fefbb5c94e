import { type Kysely, sql } from 'kysely';

// INDEX-DATA.md §1: a source as its producer describes it. Sources registered before read as they did:
// no unit (their index name's bounds), daily, the cell.
export const indexSourceDescriptors = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table index_sources
      add column unit text,
      add column currency text,
      add column cadence text not null default 'daily',
      add column sampling text not null default 'cell',
      add column product jsonb,
      add column model jsonb`.execute(db);
  },
};

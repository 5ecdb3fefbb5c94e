import { type Kysely, sql } from 'kysely';

// Each leaf's envelope, kept by the integrator beside the leaf (issue 32): the tree commits to it, so a
// leaf whose event row was later deleted is still shown as what it was, and the export and
// `GET /audit/leaves` report the event missing instead of failing. Leaves integrated before this get
// theirs from the events the log still holds; one whose event was already gone keeps none.
export const auditLeafEnvelopes = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('audit_leaves')
      .addColumn('event_id', 'uuid')
      .addColumn('event_type', 'text')
      .addColumn('prev', 'bytea')
      .addColumn('data_hash', 'bytea')
      .addColumn('metadata_hash', 'bytea')
      .execute();
    // The log is the `events` table of this database unless it is on KurrentDB, where no tree is built.
    const { rows } = await sql<{ chained: boolean }>`select exists (
        select from information_schema.columns
        where table_schema = current_schema() and table_name = 'events' and column_name = 'stored_data'
      ) as chained`.execute(db);
    if (!rows[0]?.chained) return;
    // The same texts and zeros the integrator hashed (eventstore/src/postgres/audit-read.ts).
    await sql`update audit_leaves l set event_id = e.event_id, event_type = e.event_type,
        prev = coalesce(e.prev, decode(repeat('00', 32), 'hex')),
        data_hash = sha256(convert_to(coalesce(e.stored_data, e.data::text), 'UTF8')),
        metadata_hash = sha256(convert_to(coalesce(e.stored_metadata, e.metadata::text), 'UTF8'))
      from events e where e.stream_id = l.stream_id and e.stream_revision = l.stream_revision`.execute(db);
  },
};

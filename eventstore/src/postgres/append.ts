import type pg from 'pg';
import { type AppendResult, type ExpectedRevision, type NewEvent, WrongExpectedRevisionError } from '../port';

// One statement, hence one round trip and one transaction: read the stream's head, check the expected
// revision, insert the events after it. A writer that raced us to the same revision makes the insert
// fail on events_stream_revision_key once it commits. (The insert takes the appending lock: schema.ts.)
const APPEND: pg.QueryConfig = {
  name: 'cropcover.eventstore.append',
  text: `
    with head as (
      select coalesce(max(stream_revision), -1) as revision from events where stream_id = $1
    ), accepted as (
      select revision from head where $2::int is null or revision = $2::int
    ), appended as (
      insert into events (stream_id, stream_revision, event_id, event_type, data, metadata)
      select $1, accepted.revision + e.ordinality, (e.event->>'id')::uuid, e.event->>'type', e.event->'data', e.event->'metadata'
      from accepted cross join jsonb_array_elements($3::jsonb) with ordinality as e(event, ordinality)
      order by e.ordinality
      returning stream_revision, global_position, transaction_id
    )
    select head.revision as head_revision, last.stream_revision, last.global_position, last.transaction_id
    from head left join (select * from appended order by global_position desc limit 1) last on true`,
};

const STREAM_HEAD: pg.QueryConfig = {
  name: 'cropcover.eventstore.stream-head',
  text: 'select coalesce(max(stream_revision), -1) as head_revision from events where stream_id = $1',
};

interface AppendRow {
  readonly head_revision: number;
  readonly stream_revision: number | null;
  readonly global_position: string | null;
  readonly transaction_id: string | null;
}

const UNIQUE_VIOLATION = '23505';
const STREAM_REVISION_KEY = 'events_stream_revision_key';
// With `any` a lost race is retried against the new head; every conflict means another append committed.
const MAX_ANY_ATTEMPTS = 32;

const isRevisionConflict = (error: unknown): boolean =>
  error instanceof Error &&
  (error as pg.DatabaseError).code === UNIQUE_VIOLATION &&
  (error as pg.DatabaseError).constraint === STREAM_REVISION_KEY;

/** `any` → null (no check), `no_stream` → -1 (the head revision of a missing stream), else the revision. */
const expectedHead = (expected: ExpectedRevision): number | null => {
  if (expected === 'any') return null;
  if (expected === 'no_stream') return -1;
  if (!Number.isInteger(expected) || expected < 0) throw new RangeError(`invalid expected revision ${expected}`);
  return expected;
};

const conflict = (streamId: string, expected: ExpectedRevision, headRevision: number): WrongExpectedRevisionError =>
  new WrongExpectedRevisionError(streamId, expected, headRevision === -1 ? 'no_stream' : headRevision);

const appendOnce = async (
  pool: pg.Pool,
  streamId: string,
  payload: string,
  expected: ExpectedRevision,
): Promise<AppendResult> => {
  const { rows } = await pool.query<AppendRow>({ ...APPEND, values: [streamId, expectedHead(expected), payload] });
  const row = rows[0];
  if (!row) throw new Error('append returned no row');
  if (row.stream_revision === null || row.global_position === null || row.transaction_id === null)
    throw conflict(streamId, expected, row.head_revision);
  return {
    nextExpectedRevision: row.stream_revision,
    position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) },
  };
};

export const appendEvents = async (
  pool: pg.Pool,
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedRevision,
): Promise<AppendResult> => {
  if (events.length === 0) throw new RangeError(`append to ${streamId}: no events`);
  const payload = JSON.stringify(
    events.map((event) => ({
      id: event.metadata.event_id,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
    })),
  );
  for (let attempt = 1; ; attempt++) {
    try {
      return await appendOnce(pool, streamId, payload, expected);
    } catch (error) {
      if (!isRevisionConflict(error)) throw error;
      if (expected === 'any' && attempt < MAX_ANY_ATTEMPTS) continue;
      const { rows } = await pool.query<{ head_revision: number }>({ ...STREAM_HEAD, values: [streamId] });
      throw conflict(streamId, expected, rows[0]?.head_revision ?? -1);
    }
  }
};

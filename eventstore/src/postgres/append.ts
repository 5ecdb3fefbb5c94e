import type pg from 'pg';
import { type AppendResult, type ExpectedRevision, type StreamAppend, WrongExpectedRevisionError } from '../port';
import { storedEventText } from '../stored-text';

export const APPENDED_CHANNEL = 'cropcover_eventstore_appended';

// One statement, hence one round trip and one transaction, for any number of appends to distinct streams:
// read each stream's head, check its expected revision, insert the events after it. `$2` (all or none): any
// failed check inserts nothing; otherwise each append that passed is inserted and the others are not. A
// writer that raced us to the same revision makes the insert fail on events_stream_revision_key once it
// commits. (The insert takes the appending lock: schema.ts.)
// The statement notifies subscribers of the position of its last event, so they hear of it at its commit
// and never before, without a transaction of its own (docs/decisions.md, "Event store appends").
// Each event's `prev` is the leaf hash of its stream's previous revision, computed here, inside the
// append, from the head this statement read (a writer that raced it fails on the key above, so a chain
// never forks); the leaf is events_leaf_hash over the stored canonical texts (schema.ts). A new stream
// chains from zeros, and so does one whose head has no leaf (docs/decisions.md, "Events appended before
// the chain").
// The texts come as parameters of their own ($3 data, $4 metadata) and are stored as they come, never
// escaped into $1's JSON nor parsed (docs/benchmarks.md, "Chained append, after the texts left the JSON
// payload"). An RFC 8785 text never holds a raw control character (JSON escapes them in strings; the
// canonical form has no whitespace), so U+001D separates the appends' texts and U+001E the events' within
// an append.
// A statement of single-event appends only (one event per command, and what group commit gathers) takes
// APPEND_SINGLE_EVENTS: prev is the head's leaf, without the recursive walk over each append's events
// (`chain`) that a longer append needs, so fewer plan nodes to start and no sorts for it.
const appendStatement = (name: string, singleEvents: boolean): pg.QueryConfig => ({
  name,
  text: `
    with recursive input as (
      select a.ordinality as n, a.append->>'streamId' as stream_id, (a.append->>'expected')::int as expected,
        a.append->'events' as events
      from jsonb_array_elements($1::jsonb) with ordinality as a(append, ordinality)
    ), heads as (
      select input.*, coalesce(head.revision, -1) as revision,
        coalesce(head.leaf_hash, decode(repeat('00', 32), 'hex')) as head_leaf_hash
      from input left join lateral (
        select stream_revision as revision, leaf_hash from events where events.stream_id = input.stream_id
        order by stream_revision desc limit 1
      ) head on true
    ), checked as (
      select heads.*, heads.expected is null or heads.revision = heads.expected as passed from heads
    ), texts as materialized (
      select string_to_array($3, E'\\x1d') as data, string_to_array($4, E'\\x1d') as metadata
    ), numbered as (
      select c.n, e.ordinality as k, c.stream_id, (c.revision + e.ordinality)::int as stream_revision,
        (e.event->>'id')::uuid::text as event_id, e.event->>'type' as event_type, ${
          singleEvents
            ? 't.data[c.n] as stored_data, t.metadata[c.n] as stored_metadata'
            : `(string_to_array(t.data[c.n], E'\\x1e'))[e.ordinality] as stored_data,
        (string_to_array(t.metadata[c.n], E'\\x1e'))[e.ordinality] as stored_metadata`
        }, c.head_leaf_hash
      from checked c cross join texts t cross join jsonb_array_elements(c.events) with ordinality as e(event, ordinality)
      where c.passed and not ($2::bool and exists (select from checked where not passed))
    ), chain as (
      select nb.*, nb.head_leaf_hash as prev, events_leaf_hash(nb.stream_id, nb.stream_revision, nb.event_id,
        nb.event_type, nb.head_leaf_hash, nb.stored_data, nb.stored_metadata) as leaf_hash
      from numbered nb${
        singleEvents
          ? ''
          : `
      where nb.k = 1
      union all
      select nb.*, chain.leaf_hash, events_leaf_hash(nb.stream_id, nb.stream_revision, nb.event_id, nb.event_type,
        chain.leaf_hash, nb.stored_data, nb.stored_metadata)
      from chain join numbered nb on nb.n = chain.n and nb.k = chain.k + 1`
      }
    ), appended as (
      insert into events (stream_id, stream_revision, event_id, event_type, stored_data, stored_metadata, prev,
        leaf_hash)
      select stream_id, stream_revision, event_id::uuid, event_type, stored_data, stored_metadata, prev, leaf_hash
      from chain
      order by n, k
      returning stream_id, stream_revision, global_position, transaction_id
    ), notified as (
      select pg_notify('${APPENDED_CHANNEL}', newest.transaction_id::text || '.' || newest.global_position::text)
      from (select * from appended order by global_position desc limit 1) newest
    )
    select c.revision as head_revision, last.stream_revision, last.global_position, last.transaction_id,
      (select count(*) from notified) as notifications
    from checked c left join lateral (
      select * from appended where appended.stream_id = c.stream_id order by global_position desc limit 1
    ) last on true
    order by c.n`,
});
const APPEND_TO_STREAMS = appendStatement('cropcover.eventstore.append-to-streams', false);
const APPEND_SINGLE_EVENTS = appendStatement('cropcover.eventstore.append-single-events', true);

/** The two texts' separators in $3 and $4 (see above). */
const APPEND_SEPARATOR = '\x1d';
const EVENT_SEPARATOR = '\x1e';

const STREAM_HEADS: pg.QueryConfig = {
  name: 'cropcover.eventstore.stream-heads',
  text: `
    select coalesce(max(stream_revision), -1) as head_revision
    from unnest($1::text[]) with ordinality as s(stream_id, n)
    left join events on events.stream_id = s.stream_id
    group by s.n order by s.n`,
};

interface AppendRow {
  readonly head_revision: number;
  readonly stream_revision: number | null;
  readonly global_position: string | null;
  readonly transaction_id: string | null;
}

/** An append checked and serialised for the append statement: `json` without the texts, which follow. */
export interface EncodedAppend {
  readonly streamId: string;
  readonly expected: ExpectedRevision;
  readonly json: string;
  readonly eventCount: number;
  /** The events' stored texts (RFC 8785), joined by EVENT_SEPARATOR. */
  readonly data: string;
  readonly metadata: string;
}

/** What one append of a statement came to: the stream's head before it, and its result if it was written. */
export interface AppendOutcome {
  readonly headRevision: number;
  readonly result?: AppendResult;
}

const UNIQUE_VIOLATION = '23505';
const STREAM_REVISION_KEY = 'events_stream_revision_key';
// A lost race is retried against the new heads when every expectation still holds (`any`); each conflict
// means another append committed.
const MAX_RACE_ATTEMPTS = 32;

export const isRevisionConflict = (error: unknown): boolean =>
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

const holds = (expected: ExpectedRevision, headRevision: number): boolean => {
  const head = expectedHead(expected);
  return head === null || head === headRevision;
};

export const conflict = (
  streamId: string,
  expected: ExpectedRevision,
  headRevision: number,
): WrongExpectedRevisionError =>
  new WrongExpectedRevisionError(streamId, expected, headRevision === -1 ? 'no_stream' : headRevision);

export const encodeAppend = ({ streamId, events, expected }: StreamAppend): EncodedAppend => {
  if (events.length === 0) throw new RangeError(`append to ${streamId}: no events`);
  const json = JSON.stringify({
    streamId,
    expected: expectedHead(expected),
    events: events.map((event) => ({ id: event.metadata.event_id, type: event.type })),
  });
  // The stored texts, canonical so the leaf can be recomputed from any copy of the event (RFC 8785).
  return {
    streamId,
    expected,
    json,
    eventCount: events.length,
    data: events.map((event) => storedEventText(event.data, event.type)).join(EVENT_SEPARATOR),
    metadata: events.map((event) => storedEventText(event.metadata, event.type)).join(EVENT_SEPARATOR),
  };
};

/** Runs the appends, to distinct streams, in one statement; with `allOrNone` a failed check inserts nothing. */
export const runAppends = async (
  pool: pg.Pool,
  appends: readonly EncodedAppend[],
  allOrNone: boolean,
): Promise<AppendOutcome[]> => {
  const payload = `[${appends.map((append) => append.json).join(',')}]`;
  const data = appends.map((append) => append.data).join(APPEND_SEPARATOR);
  const metadata = appends.map((append) => append.metadata).join(APPEND_SEPARATOR);
  const statement = appends.every((append) => append.eventCount === 1) ? APPEND_SINGLE_EVENTS : APPEND_TO_STREAMS;
  const { rows } = await pool.query<AppendRow>({ ...statement, values: [payload, allOrNone, data, metadata] });
  if (rows.length !== appends.length) throw new Error(`append returned ${rows.length} rows for ${appends.length}`);
  return rows.map((row) => {
    if (row.stream_revision === null || row.global_position === null || row.transaction_id === null)
      return { headRevision: row.head_revision };
    return {
      headRevision: row.head_revision,
      result: {
        nextExpectedRevision: row.stream_revision,
        position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) },
      },
    };
  });
};

const readHeads = async (pool: pg.Pool, appends: readonly EncodedAppend[]): Promise<number[]> => {
  const { rows } = await pool.query<{ head_revision: number }>({
    ...STREAM_HEADS,
    values: [appends.map((append) => append.streamId)],
  });
  return rows.map((row) => row.head_revision);
};

/** All the appends or none, in one transaction; the first stream whose expected revision does not hold is
 *  named in the WrongExpectedRevisionError. */
export const appendAllOrNone = async (pool: pg.Pool, appends: readonly EncodedAppend[]): Promise<AppendResult[]> => {
  const streams = new Set(appends.map((append) => append.streamId));
  if (appends.length === 0) throw new RangeError('append to streams: no appends');
  if (streams.size !== appends.length) throw new RangeError('append to streams: a stream appears twice');
  const firstBroken = (heads: readonly number[]): WrongExpectedRevisionError | undefined => {
    const i = appends.findIndex((append, k) => !holds(append.expected, heads[k]!));
    return i < 0 ? undefined : conflict(appends[i]!.streamId, appends[i]!.expected, heads[i]!);
  };
  for (let attempt = 1; ; attempt++) {
    try {
      const outcomes = await runAppends(pool, appends, true);
      const results = outcomes.flatMap(({ result }) => (result ? [result] : []));
      if (results.length === appends.length) return results;
      throw firstBroken(outcomes.map(({ headRevision }) => headRevision)) ?? new Error('append wrote no events');
    } catch (error) {
      if (!isRevisionConflict(error)) throw error;
      const broken = firstBroken(await readHeads(pool, appends));
      if (broken) throw broken;
      if (attempt >= MAX_RACE_ATTEMPTS) throw error;
    }
  }
};

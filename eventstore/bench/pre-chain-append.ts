import type pg from 'pg';
import type { NewEvent } from '../src/index';
import { APPENDED_CHANNEL, type EncodedAppend } from '../src/postgres/append';
import { createGroupCommit } from '../src/postgres/group-commit';
import type { AppendOne } from './workload';

// The append as it was before the audit chain (commit 9d78e24^, issue 20's "plain"), for a same-run
// comparison: its statement verbatim (no prev, no leaf hash, no stored texts) and its encoding
// (JSON.stringify, no RFC 8785), run through today's group commit with today's options, so the chain's
// whole cost — canonical JSON in Node, the prev lookup and hashing in SQL, the stored texts — is what the
// two cases differ by. The pool handed to the group commit swaps the statement by its name (either of the
// store's two), and passes it only the parameters it had then: its JSON, with the events inline, and $2.

const APPEND_STATEMENT_NAMES = new Set([
  'cropcover.eventstore.append-to-streams',
  'cropcover.eventstore.append-single-events',
]);
const PRE_CHAIN_APPEND: pg.QueryConfig = {
  name: 'bench.pre-chain-append-to-streams',
  text: `
    with input as (
      select a.ordinality as n, a.append->>'streamId' as stream_id, (a.append->>'expected')::int as expected,
        a.append->'events' as events
      from jsonb_array_elements($1::jsonb) with ordinality as a(append, ordinality)
    ), checked as (
      select input.*, head.revision, input.expected is null or head.revision = input.expected as passed
      from input cross join lateral (
        select coalesce(max(stream_revision), -1) as revision from events where events.stream_id = input.stream_id
      ) head
    ), appended as (
      insert into events (stream_id, stream_revision, event_id, event_type, data, metadata)
      select c.stream_id, c.revision + e.ordinality, (e.event->>'id')::uuid, e.event->>'type', e.event->'data',
        e.event->'metadata'
      from checked c cross join jsonb_array_elements(c.events) with ordinality as e(event, ordinality)
      where c.passed and not ($2::bool and exists (select from checked where not passed))
      order by c.n, e.ordinality
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
};

const preChainPool = (pool: pg.Pool): pg.Pool =>
  ({
    query: (config: pg.QueryConfig) =>
      pool.query(
        APPEND_STATEMENT_NAMES.has(config.name ?? '')
          ? { ...PRE_CHAIN_APPEND, values: config.values?.slice(0, 2) }
          : config,
      ),
  }) as unknown as pg.Pool;

const encodePreChain = (streamId: string, event: NewEvent, expected: number | undefined): EncodedAppend => ({
  streamId,
  expected: expected ?? 'no_stream',
  json: JSON.stringify({
    streamId,
    expected: expected ?? -1,
    events: [{ id: event.metadata.event_id, type: event.type, data: event.data, metadata: event.metadata }],
  }),
  eventCount: 1,
  data: '',
  metadata: '',
});

/** Single-event appends the pre-chain way, with the store's group commit options (two statements in
 *  flight, 64 appends each: postgres-event-store.ts). */
export const preChainAppendOne = (pool: pg.Pool): AppendOne => {
  const groupCommit = createGroupCommit(preChainPool(pool), { maxStatementsInFlight: 2, maxAppendsPerStatement: 64 });
  return async (streamId, event, expected) =>
    (await groupCommit.append(encodePreChain(streamId, event, expected))).nextExpectedRevision;
};

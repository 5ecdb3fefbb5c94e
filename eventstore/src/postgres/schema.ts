import type pg from 'pg';

/** The shared advisory lock (a bigint key: classid 0, objsubid 1 in pg_locks) every transaction that
 *  inserts events holds until it ends: readers of $all tell appends from other transactions by it. */
export const APPENDING_LOCK_KEY = 1_129_467_728;

// transaction_id is what makes $all safe to follow: readers only take rows of transactions older than
// every append still running, so a slow append that commits late is never skipped (read.ts). The
// statement trigger takes the appending lock before the statement's first row is written, so before a
// transaction that starts with its append has an id; shared, so appends never wait on one another. An
// append must be its transaction's first write: one that wrote something else first had an id without
// the lock for a while, and a reader could pass it. The trigger refuses such an insert rather than let it
// be skipped; a transaction-local setting marks one that took the lock (a savepoint rolled back undoes
// both the lock and the mark).
const EVENTS_TABLE = `
  create table if not exists events (
    global_position bigint generated always as identity primary key,
    stream_id text not null,
    stream_revision int not null,
    event_id uuid not null,
    event_type text not null,
    data jsonb,
    metadata jsonb,
    transaction_id xid8 not null default pg_current_xact_id(),
    constraint events_event_id_key unique (event_id),
    constraint events_stream_revision_key unique (stream_id, stream_revision)
  );
  create index if not exists events_transaction_position_idx on events (transaction_id, global_position);
  create or replace function events_take_appending_lock() returns trigger language plpgsql as $$
  begin
    if current_setting('cropcover.appending', true) is distinct from 'on' then
      if pg_current_xact_id_if_assigned() is not null then
        raise exception 'an insert into events must be its transaction''s first write'
          using hint = 'append in a transaction of its own: readers of $all could otherwise pass it';
      end if;
      perform pg_advisory_xact_lock_shared(${APPENDING_LOCK_KEY}::bigint);
      perform set_config('cropcover.appending', 'on', true);
    end if;
    return null;
  end $$;
  create or replace trigger events_appending_lock before insert on events
    for each statement execute function events_take_appending_lock();
`;

// The audit chain (SPEC §7 Audit, docs/audit-bundle.md): stored_data and stored_metadata are the exact
// RFC 8785 texts the leaf hashes, and a chained event is these texts alone: it has no jsonb copy (data and
// metadata null), whose parsing and storing were half of what the chain added to the server's CPU per
// event (docs/decisions.md, "A chained event is stored as its texts only"); events_json shows every event
// as jsonb for ad-hoc SQL. Events appended before the chain have their jsonb and no texts;
// events_texts_present holds that each row has one or the other (`not valid`: the old rows met it by
// their `not null`, and are not scanned again).
// prev is the leaf hash of the stream's previous revision, leaf_hash this event's.
// events_leaf_hash is the leaf of verifiable-log's event-leaf.ts written in SQL, keys in RFC 8785 order;
// to_json of a text writes the same JSON string as JSON.stringify does. A base64 hash (44 characters, no
// line break) needs no escaping and is quoted as it is: to_json looks up the type's output function on
// every call, which cost about a fifth of the leaf (docs/benchmarks.md, Audit trail). Stable, as
// convert_to and to_json are: PostgreSQL inlines an SQL function into the append only when its body is no
// more volatile than declared, and an `immutable` one ran as a query of its own per event.
const AUDIT_CHAIN_COLUMNS = ['stored_data', 'stored_metadata', 'prev', 'leaf_hash'];
const AUDIT_CHAIN = `
  alter table events add column if not exists stored_data text;
  alter table events add column if not exists stored_metadata text;
  alter table events add column if not exists prev bytea;
  alter table events add column if not exists leaf_hash bytea;
`;
const TEXTS_PRESENT_CONSTRAINT = 'events_texts_present';
const TEXTS_ONLY = `
  alter table events alter column data drop not null, alter column metadata drop not null,
    add constraint ${TEXTS_PRESENT_CONSTRAINT} check (
      stored_data is not null and stored_metadata is not null or data is not null and metadata is not null) not valid;
`;
const EVENTS_JSON_VIEW = `
  create view events_json as
    select global_position, transaction_id, stream_id, stream_revision, event_id, event_type,
      coalesce(stored_data::jsonb, data) as data, coalesce(stored_metadata::jsonb, metadata) as metadata
    from events;
`;
const AUDIT_LEAF_FUNCTION = `
  create or replace function events_leaf_hash(
    stream_id text, revision int, event_id text, event_type text, prev bytea, stored_data text, stored_metadata text
  ) returns bytea language sql stable parallel safe as $$
    select sha256('\\x00'::bytea || convert_to(
      '{"dataHash":"' || encode(sha256(convert_to(stored_data, 'UTF8')), 'base64')
      || '","eventId":' || to_json(event_id)::text
      || ',"metaHash":"' || encode(sha256(convert_to(stored_metadata, 'UTF8')), 'base64')
      || '","prev":"' || encode(prev, 'base64')
      || '","rev":' || revision::text
      || ',"stream":' || to_json(stream_id)::text
      || ',"type":' || to_json(event_type)::text
      || ',"v":1}', 'UTF8'))
  $$;
`;

/** Creates the event store's table, indexes, functions and view when missing; safe to run from several
 *  processes at once. */
export const migrateEventStore = async (pool: pg.Pool): Promise<void> => {
  const client = await pool.connect();
  let failed = false;
  try {
    await client.query('begin');
    // `create … if not exists` is not atomic: two processes starting together could both try to create.
    await client.query(`select pg_advisory_xact_lock(hashtext('cropcover.eventstore.migrate'))`);
    await client.query(EVENTS_TABLE);
    // `alter table` takes an exclusive lock on events even when the columns are there, and deadlocked
    // with appends running while a process started (the projector crash test): only when one is missing.
    const present = await client.query<{ count: number }>(
      `select count(*)::int as count from information_schema.columns
       where table_schema = current_schema() and table_name = 'events' and column_name = any($1)`,
      [AUDIT_CHAIN_COLUMNS],
    );
    if (present.rows[0]!.count < AUDIT_CHAIN_COLUMNS.length) await client.query(AUDIT_CHAIN);
    const textsOnly = await client.query(
      `select from pg_constraint where conrelid = 'events'::regclass and conname = $1`,
      [TEXTS_PRESENT_CONSTRAINT],
    );
    if (textsOnly.rowCount === 0) await client.query(TEXTS_ONLY);
    await client.query(AUDIT_LEAF_FUNCTION);
    // Replacing a view locks it out: one long ad-hoc query over events_json would hold every start.
    const view = await client.query<{ view: string | null }>(`select to_regclass('events_json')::text as view`);
    if (view.rows[0]!.view === null) await client.query(EVENTS_JSON_VIEW);
    await client.query('commit');
  } catch (error) {
    failed = true;
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    // A connection that failed mid-transaction is dropped rather than handed to the next user.
    client.release(failed);
  }
};

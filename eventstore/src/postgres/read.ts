import type pg from 'pg';
import type { AllStreamStart, GlobalPosition, RecordedEvent } from '../port';
import type { Upcast } from '../upcasting';
import { EVENT_COLUMNS, type EventRow, toRecordedEvent } from './event-row';
import { APPENDING_LOCK_KEY } from './schema';

// Only rows of transactions older than the oldest append still running are readable on $all: an append
// that took its transaction id earlier but commits later is waited for instead of being skipped behind a
// checkpoint. Transactions that are not appends (another database's, a long import, a migration) do not
// hold the log back, though they hold back the server's snapshot xmin, which was the horizon before.
//
// The horizon is the oldest transaction of this statement's snapshot (`xip`: in progress when it was
// taken) that may be an append, else the snapshot's xmax (the first id not yet given out). A prepared
// transaction has no backend (pid null) to tell by, so it may be one. A transaction
// is known not to be an append when, in the lock table read after the snapshot, its backend holds its
// transaction id without the appending lock, and it is still in progress when checked after that read.
// The order matters: a transaction that commits leaves the in-progress set before it releases its locks,
// so one caught half-way through releasing them is no longer in progress and still counts. An append
// takes the appending lock before its transaction has an id (schema.ts), so a running transaction with
// an id and no such lock never is one. The lock table is read once, at the first row of `locks`, before
// `others_running` yields anything for `not_appends` to check.
export const HORIZON_CTES = `
  snapshot as materialized (select pg_current_snapshot() as taken),
  locks as materialized (
    select pid, locktype, mode, granted, transactionid, database, classid, objid, objsubid from pg_locks),
  others_running as materialized (
    select xip from snapshot, pg_snapshot_xip(snapshot.taken) as xip
    where exists (
      select 1 from locks holder
      where holder.locktype = 'transactionid' and holder.transactionid = xip::xid
        and holder.mode = 'ExclusiveLock' and holder.granted and holder.pid is not null
        and not exists (
          select 1 from locks appending
          where appending.pid = holder.pid and appending.locktype = 'advisory' and appending.granted
            and appending.database = (select oid from pg_database where datname = current_database())
            and appending.classid = 0 and appending.objid = ${APPENDING_LOCK_KEY} and appending.objsubid = 1))),
  not_appends as materialized (
    select xip from others_running where pg_xact_status(xip) = 'in progress'),
  horizon as (
    select coalesce(
      (select min(xip) from snapshot, pg_snapshot_xip(snapshot.taken) as xip
       where xip not in (select xip from not_appends)),
      (select pg_snapshot_xmax(taken) from snapshot)) as below)`;

const READ_ALL: pg.QueryConfig = {
  name: 'cropcover.eventstore.read-all',
  text: `with ${HORIZON_CTES}
    select ${EVENT_COLUMNS} from events
    where transaction_id < (select below from horizon) and (transaction_id, global_position) > ($1::xid8, $2::bigint)
    order by transaction_id, global_position
    limit $3`,
};

const READ_STREAM: pg.QueryConfig = {
  name: 'cropcover.eventstore.read-stream',
  text: `select ${EVENT_COLUMNS} from events
    where stream_id = $1 and stream_revision >= $2
    order by stream_revision
    limit $3`,
};

const HEAD_POSITION: pg.QueryConfig = {
  name: 'cropcover.eventstore.head-position',
  text: `with ${HORIZON_CTES}
    select transaction_id, global_position from events
    where transaction_id < (select below from horizon)
    order by transaction_id desc, global_position desc
    limit 1`,
};

const BEFORE_FIRST: GlobalPosition = { commit: 0n, prepare: 0n };

export const readAllEvents = async (
  pool: pg.Pool,
  upcast: Upcast,
  after: GlobalPosition | AllStreamStart,
  limit: number,
): Promise<RecordedEvent[]> => {
  const from = after === 'start' ? BEFORE_FIRST : after;
  const { rows } = await pool.query<EventRow>({
    ...READ_ALL,
    values: [from.commit.toString(), from.prepare.toString(), limit],
  });
  return rows.map((row) => upcast(toRecordedEvent(row)));
};

export const readStreamEvents = async (
  pool: pg.Pool,
  upcast: Upcast,
  streamId: string,
  fromRevision = 0,
  limit?: number,
): Promise<RecordedEvent[]> => {
  // `limit null` means no limit in PostgreSQL.
  const { rows } = await pool.query<EventRow>({ ...READ_STREAM, values: [streamId, fromRevision, limit ?? null] });
  return rows.map((row) => upcast(toRecordedEvent(row)));
};

// Not the readable head: a write's token may name a row still behind the horizon. A committed append's
// transaction id is below the snapshot's xmax (taken without assigning this reader an id), and its
// global position at most the greatest in the table.
const ISSUED_BOUND: pg.QueryConfig = {
  name: 'cropcover.eventstore.issued-bound',
  text: `select pg_snapshot_xmax(pg_current_snapshot())::text as next_transaction_id,
      coalesce(max(global_position), 0)::text as newest_global_position
    from events`,
};

export const mayHaveIssued = async (pool: pg.Pool, position: GlobalPosition): Promise<boolean> => {
  const { rows } = await pool.query<{ next_transaction_id: string; newest_global_position: string }>(ISSUED_BOUND);
  const bound = rows[0];
  return (
    bound !== undefined &&
    position.commit < BigInt(bound.next_transaction_id) &&
    position.prepare <= BigInt(bound.newest_global_position)
  );
};

export const readHeadPosition = async (pool: pg.Pool): Promise<GlobalPosition | AllStreamStart> => {
  const { rows } = await pool.query<Pick<EventRow, 'transaction_id' | 'global_position'>>(HEAD_POSITION);
  const row = rows[0];
  return row ? { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) } : 'start';
};

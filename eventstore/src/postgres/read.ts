import type pg from 'pg';
import type { AllStreamStart, GlobalPosition, RecordedEvent } from '../port';
import type { Upcast } from '../upcasting';
import { EVENT_COLUMNS, type EventRow, toRecordedEvent } from './event-row';

// Only rows of transactions older than the oldest one still running are readable on $all: a transaction
// that took its id earlier but commits later is waited for instead of being skipped behind a checkpoint.
const VISIBLE = 'transaction_id < pg_snapshot_xmin(pg_current_snapshot())';

const READ_ALL: pg.QueryConfig = {
  name: 'cropcover.eventstore.read-all',
  text: `select ${EVENT_COLUMNS} from events
    where ${VISIBLE} and (transaction_id, global_position) > ($1::xid8, $2::bigint)
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
  text: `select transaction_id, global_position from events
    where ${VISIBLE}
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

export const readHeadPosition = async (pool: pg.Pool): Promise<GlobalPosition | AllStreamStart> => {
  const { rows } = await pool.query<Pick<EventRow, 'transaction_id' | 'global_position'>>(HEAD_POSITION);
  const row = rows[0];
  return row ? { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) } : 'start';
};

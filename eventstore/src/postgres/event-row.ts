import type { EventMetadata, RecordedEvent } from '../port';

/** The columns every read selects, in the shape node-postgres returns them (int8 and xid8 as text). */
export const EVENT_COLUMNS = 'global_position, transaction_id, stream_id, stream_revision, event_type, data, metadata';

export interface EventRow {
  readonly global_position: string;
  readonly transaction_id: string;
  readonly stream_id: string;
  readonly stream_revision: number;
  readonly event_type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

export const toRecordedEvent = (row: EventRow): RecordedEvent => ({
  streamId: row.stream_id,
  revision: row.stream_revision,
  position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) },
  type: row.event_type,
  data: row.data,
  metadata: row.metadata,
});

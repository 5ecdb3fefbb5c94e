import type { EventMetadata, RecordedEvent } from '../port';

/** An event's texts: the stored RFC 8785 ones, or, for an event appended before the chain, its jsonb
 *  written out as text (schema.ts). */
export const EVENT_TEXTS = {
  data: 'coalesce(stored_data, data::text)',
  metadata: 'coalesce(stored_metadata, metadata::text)',
};

/** The columns every read selects, in the shape node-postgres returns them (int8 and xid8 as text). The
 *  texts are parsed here, once: as jsonb they were written out as text and parsed all the same. */
export const EVENT_COLUMNS = `global_position, transaction_id, stream_id, stream_revision, event_type,
  ${EVENT_TEXTS.data} as data, ${EVENT_TEXTS.metadata} as metadata`;

export interface EventRow {
  readonly global_position: string;
  readonly transaction_id: string;
  readonly stream_id: string;
  readonly stream_revision: number;
  readonly event_type: string;
  readonly data: string;
  readonly metadata: string;
}

export const toRecordedEvent = (row: EventRow): RecordedEvent => ({
  streamId: row.stream_id,
  revision: row.stream_revision,
  position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) },
  type: row.event_type,
  data: JSON.parse(row.data),
  metadata: JSON.parse(row.metadata) as EventMetadata,
});

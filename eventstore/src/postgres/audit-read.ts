import { type HashedEvent, type LeafEnvelope, leafEnvelopeOfHashes } from '@cropcover/verifiable-log';
import type pg from 'pg';
import type { GlobalPosition } from '../port';
import type { StoredLogEvent } from '../stored-log-event';
import { EVENT_TEXTS } from './event-row';
import { HORIZON_CTES } from './read';

// The audit's reads of the log (SPEC §7 Audit): the exact texts each leaf hashed, and the leaves in the
// order $all commits them, which is the tree's order. Both read the columns of the chain (schema.ts). An
// event appended before the chain existed is read as if its jsonb text had been stored, with zeros for
// `prev`: the tree still takes it (it never skips an event), and a verifier sees where the chain starts.
const LEGACY = {
  ...EVENT_TEXTS,
  prev: `coalesce(prev, decode(repeat('00', 32), 'hex'))`,
};
const LEAF = `coalesce(leaf_hash, events_leaf_hash(stream_id, stream_revision, event_id::text, event_type, ${LEGACY.prev},
  ${LEGACY.data}, ${LEGACY.metadata}))`;

/** A leaf of the log in commit order, with its envelope: the integrator keeps it, so a leaf whose event
 *  was later deleted can still be shown (docs/audit-bundle.md). */
export interface LogLeaf {
  readonly position: GlobalPosition;
  readonly stream: string;
  readonly revision: number;
  readonly leafHash: Uint8Array;
  readonly envelope: LeafEnvelope;
}

interface LeafRow extends HashedEvent {
  readonly leaf_hash: Buffer;
  readonly transaction_id: string;
  readonly global_position: string;
}

interface StoredRow {
  readonly stream_id: string;
  readonly stream_revision: number;
  readonly event_id: string;
  readonly event_type: string;
  readonly stored_data: string;
  readonly stored_metadata: string;
  readonly prev: Buffer;
  readonly leaf_hash: Buffer;
  readonly transaction_id: string;
  readonly global_position: string;
}

const READ_STORED: pg.QueryConfig = {
  name: 'cropcover.eventstore.read-stored',
  text: `select stream_id, stream_revision, event_id::text, event_type, ${LEGACY.data} as stored_data,
      ${LEGACY.metadata} as stored_metadata, ${LEGACY.prev} as prev, ${LEAF} as leaf_hash, transaction_id, global_position
    from events where stream_id = $1 and stream_revision >= $2 order by stream_revision limit $3`,
};

const storedEventOf = (row: StoredRow): StoredLogEvent => ({
  stream: row.stream_id,
  revision: row.stream_revision,
  eventId: row.event_id,
  type: row.event_type,
  data: row.stored_data,
  metadata: row.stored_metadata,
  prev: new Uint8Array(row.prev),
  leafHash: new Uint8Array(row.leaf_hash),
  position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) },
});

export const readStoredEvents = async (
  pool: pg.Pool,
  streamId: string,
  fromRevision = 0,
  limit?: number,
): Promise<StoredLogEvent[]> => {
  const { rows } = await pool.query<StoredRow>({ ...READ_STORED, values: [streamId, fromRevision, limit ?? null] });
  return rows.map(storedEventOf);
};

const READ_STORED_AT: pg.QueryConfig = {
  name: 'cropcover.eventstore.read-stored-at',
  text: `select stream_id, stream_revision, event_id::text, event_type, ${LEGACY.data} as stored_data,
      ${LEGACY.metadata} as stored_metadata, ${LEGACY.prev} as prev, ${LEAF} as leaf_hash, transaction_id, global_position
    from events where (stream_id, stream_revision) in (select * from unnest($1::text[], $2::int[]))`,
};

/** The stored events at these (stream, revision) places, in the order asked; a place the log does not
 *  hold is missing from the answer. */
export const readStoredEventsAt = async (
  pool: pg.Pool,
  places: readonly { readonly stream: string; readonly revision: number }[],
): Promise<StoredLogEvent[]> => {
  if (places.length === 0) return [];
  const { rows } = await pool.query<StoredRow>({
    ...READ_STORED_AT,
    values: [places.map((place) => place.stream), places.map((place) => place.revision)],
  });
  const byPlace = new Map(rows.map((row) => [`${row.stream_revision}:${row.stream_id}`, storedEventOf(row)]));
  return places.flatMap((place) => byPlace.get(`${place.revision}:${place.stream}`) ?? []);
};

// Under the same horizon as readAll: a late commit with a lower position is waited for, never passed.
const READ_LEAVES: pg.QueryConfig = {
  name: 'cropcover.eventstore.read-leaves',
  text: `with ${HORIZON_CTES}
    select transaction_id, global_position, stream_id as stream, stream_revision as revision,
      event_id::text as "eventId", event_type as type, ${LEGACY.prev} as prev,
      sha256(convert_to(${LEGACY.data}, 'UTF8')) as "dataHash", sha256(convert_to(${LEGACY.metadata}, 'UTF8')) as "metaHash",
      ${LEAF} as leaf_hash from events
    where transaction_id < (select below from horizon) and (transaction_id, global_position) > ($1::xid8, $2::bigint)
    order by transaction_id, global_position
    limit $3`,
};

/** Up to `limit` leaves strictly after `after`, in the order $all commits them. */
export const readLeavesInCommitOrder = async (
  pool: pg.Pool,
  after: GlobalPosition | 'start',
  limit: number,
): Promise<LogLeaf[]> => {
  const from = after === 'start' ? { commit: 0n, prepare: 0n } : after;
  const { rows } = await pool.query<LeafRow>({
    ...READ_LEAVES,
    values: [from.commit.toString(), from.prepare.toString(), limit],
  });
  return rows.map((row) => ({
    position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) },
    stream: row.stream,
    revision: row.revision,
    leafHash: new Uint8Array(row.leaf_hash),
    envelope: leafEnvelopeOfHashes(row),
  }));
};

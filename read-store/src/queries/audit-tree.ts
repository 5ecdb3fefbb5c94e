import type { AuditCheckpoint } from '@cropcover/contracts';
import {
  inclusionProofRanges,
  type LeafEnvelope,
  type LeafRange,
  leafEnvelopeOfHashes,
  rangeHash,
  subtreesOf,
} from '@cropcover/verifiable-log';
import { type Kysely, sql } from 'kysely';
import type { ReadModels } from '../read-models';

// Reads of the audit integrator's tree: any root or proof is a few complete subtrees (`subtreesOf`),
// fetched in one query.

/** Leaves the integrator has taken so far. */
export const loadTreeSize = async (db: Kysely<ReadModels>): Promise<number> => {
  const row = await db
    .selectFrom('audit_leaves')
    .select(sql<string | null>`max(leaf_index)`.as('last'))
    .executeTakeFirst();
  return row?.last == null ? 0 : Number(row.last) + 1;
};

/** The hash of each range (MTH of its leaves), in order. */
export const loadRangeHashes = async (db: Kysely<ReadModels>, ranges: readonly LeafRange[]): Promise<Uint8Array[]> => {
  const perRange = ranges.map(({ start, end }) => subtreesOf(start, end));
  const ids = perRange.flat();
  if (ids.length === 0) return ranges.map(() => rangeHash([]));
  const rows = await db
    .selectFrom('audit_tree')
    .select(['level', 'node_index', 'hash'])
    .where(
      sql<boolean>`(level, node_index) in (select * from unnest(${ids.map((id) => id.level)}::smallint[], ${ids.map((id) => id.index)}::bigint[]))`,
    )
    .execute();
  const byId = new Map(rows.map((row) => [`${row.level}/${row.node_index}`, new Uint8Array(row.hash)]));
  return perRange.map((subtrees) =>
    rangeHash(
      subtrees.map(({ level, index }) => {
        const hash = byId.get(`${level}/${index}`);
        if (!hash) throw new Error(`the audit tree lacks its subtree ${level}/${index}`);
        return hash;
      }),
    ),
  );
};

/** Each integrated revision of a stream, with its leaf index. */
export const loadLeafIndexes = async (db: Kysely<ReadModels>, stream: string): Promise<Map<number, number>> => {
  const rows = await db
    .selectFrom('audit_leaves')
    .select(['leaf_index', 'stream_revision'])
    .where('stream_id', '=', stream)
    .execute();
  return new Map(rows.map((row) => [row.stream_revision, Number(row.leaf_index)]));
};

/** A leaf of the tree: which event it is, the hash the tree took, and the envelope the integrator kept
 *  (undefined on a leaf whose event was gone before it kept envelopes, migration 0041). */
export interface KeptLeaf {
  readonly leafIndex: number;
  readonly stream: string;
  readonly revision: number;
  readonly leafHash: Uint8Array;
  readonly envelope: LeafEnvelope | undefined;
}

/** The leaves of [from, from + count), in leaf order (fewer past the tree's end). */
export const loadLeafPlaces = async (db: Kysely<ReadModels>, from: number, count: number): Promise<KeptLeaf[]> => {
  const rows = await db
    .selectFrom('audit_leaves as leaf')
    .innerJoin('audit_tree as node', (join) =>
      join.on('node.level', '=', 0).onRef('node.node_index', '=', 'leaf.leaf_index'),
    )
    .select([
      'leaf.leaf_index',
      'leaf.stream_id',
      'leaf.stream_revision',
      'leaf.event_id',
      'leaf.event_type',
      'leaf.prev',
      'leaf.data_hash',
      'leaf.metadata_hash',
      'node.hash',
    ])
    .where('leaf.leaf_index', '>=', String(from))
    .where('leaf.leaf_index', '<', String(from + count))
    .orderBy('leaf.leaf_index')
    .execute();
  return rows.map((row) => ({
    leafIndex: Number(row.leaf_index),
    stream: row.stream_id,
    revision: row.stream_revision,
    leafHash: new Uint8Array(row.hash),
    envelope:
      row.event_id && row.event_type && row.prev && row.data_hash && row.metadata_hash
        ? leafEnvelopeOfHashes({
            stream: row.stream_id,
            revision: row.stream_revision,
            eventId: row.event_id,
            type: row.event_type,
            prev: row.prev,
            dataHash: row.data_hash,
            metaHash: row.metadata_hash,
          })
        : undefined,
  }));
};

/** Inclusion proofs of several leaves in one tree size, fetched in one query. */
export const loadInclusionProofs = async (
  db: Kysely<ReadModels>,
  leafIndexes: readonly number[],
  size: number,
): Promise<Uint8Array[][]> => {
  const perLeaf = leafIndexes.map((index) => inclusionProofRanges(index, size));
  const hashes = await loadRangeHashes(db, perLeaf.flat());
  let next = 0;
  return perLeaf.map((ranges) => {
    next += ranges.length;
    return hashes.slice(next - ranges.length, next);
  });
};

export interface StoredCheckpoint {
  readonly size: number;
  readonly root: Uint8Array;
  readonly note: string;
}

/** The newest checkpoint the sink took: one held outside the database, which a payout may wait for. */
export const loadNewestPublishedCheckpoint = async (db: Kysely<ReadModels>): Promise<StoredCheckpoint | undefined> => {
  const row = await db
    .selectFrom('audit_checkpoints')
    .select(['tree_size', 'root', 'note'])
    .where('published_at', 'is not', null)
    .orderBy('tree_size', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && { size: Number(row.tree_size), root: new Uint8Array(row.root), note: row.note };
};

/** A checkpoint as the API and the webhooks show it; the origin is the note's first line. */
export const checkpointOnTheWire = (checkpoint: StoredCheckpoint): AuditCheckpoint => ({
  origin: checkpoint.note.slice(0, checkpoint.note.indexOf('\n')),
  size: checkpoint.size,
  root: Buffer.from(checkpoint.root).toString('base64'),
  note: checkpoint.note,
});

/** The newest signed checkpoint, or the one of `size`. */
export const loadCheckpoint = async (db: Kysely<ReadModels>, size?: number): Promise<StoredCheckpoint | undefined> => {
  let query = db.selectFrom('audit_checkpoints').select(['tree_size', 'root', 'note']);
  query =
    size === undefined ? query.orderBy('tree_size', 'desc').limit(1) : query.where('tree_size', '=', String(size));
  const row = await query.executeTakeFirst();
  return row && { size: Number(row.tree_size), root: new Uint8Array(row.root), note: row.note };
};

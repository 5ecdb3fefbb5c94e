import { readStoredEvents, readStoredEventsAt } from '@cropcover/eventstore';
import {
  type AuditBundle,
  BUNDLE_FORMAT,
  canonicalJson,
  consistencyProofRanges,
  leafEnvelopeOf,
} from '@cropcover/verifiable-log';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { ReadModels } from '../read-models';
import { loadCheckpoint, loadInclusionProofs, loadLeafIndexes, loadLeafPlaces, loadRangeHashes } from './audit-tree';

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

export interface ExportedBundle {
  readonly bundle: AuditBundle;
  /** Events of the stream the newest checkpoint does not cover yet: left out, named here. */
  readonly notYetCovered: number;
}

const LEAVES_PER_READ = 10_000;

/** Every leaf input of a tree of `size`, recomputed from the stored bytes as `GET /audit/leaves` does: an
 *  edited row gives an input that no longer rebuilds the signed root. */
const leafInputs = async (pool: pg.Pool, db: Kysely<ReadModels>, size: number): Promise<string[]> => {
  const inputs: string[] = [];
  for (let from = 0; from < size; from += LEAVES_PER_READ) {
    const places = await loadLeafPlaces(db, from, Math.min(LEAVES_PER_READ, size - from));
    const stored = await readStoredEventsAt(pool, places);
    if (stored.length !== places.length) throw new Error(`the log lacks events of leaves ${from}…`);
    inputs.push(...stored.map((event) => canonicalJson(leafEnvelopeOf(event))));
  }
  return inputs;
};

/** One stream's bundle (docs/audit-bundle.md) against the newest signed checkpoint, with consistency
 *  proofs from every earlier checkpoint the log signed; `full` adds every leaf input of its tree, so the
 *  verifier sees that no event of the stream was left out. Undefined when nothing is checkpointed yet. */
export const exportAuditBundle = async (
  pool: pg.Pool,
  db: Kysely<ReadModels>,
  stream: string,
  { full = false }: { readonly full?: boolean } = {},
): Promise<ExportedBundle | undefined> => {
  const checkpoint = await loadCheckpoint(db);
  if (!checkpoint) return undefined;
  const events = await readStoredEvents(pool, stream);
  const leafIndexOf = await loadLeafIndexes(db, stream);
  const covered = events.filter((event) => (leafIndexOf.get(event.revision) ?? Infinity) < checkpoint.size);
  const leafIndexes = covered.map((event) => leafIndexOf.get(event.revision)!);
  const proofs = await loadInclusionProofs(db, leafIndexes, checkpoint.size);
  const bundleEvents = covered.map((event, i) => ({
    revision: event.revision,
    event_id: event.eventId,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
    prev: base64(event.prev),
    leaf_hash: base64(event.leafHash),
    leaf_index: leafIndexes[i]!,
    proof: proofs[i]!.map(base64),
  }));
  const earlier = await db
    .selectFrom('audit_checkpoints')
    .select('tree_size')
    .where('tree_size', '<', String(checkpoint.size))
    .orderBy('tree_size')
    .execute();
  const consistency = await Promise.all(
    earlier.map(async ({ tree_size }) => ({
      from_size: Number(tree_size),
      hashes: (await loadRangeHashes(db, consistencyProofRanges(Number(tree_size), checkpoint.size))).map(base64),
    })),
  );
  return {
    bundle: {
      format: BUNDLE_FORMAT,
      stream,
      events: bundleEvents,
      checkpoint: checkpoint.note,
      consistency,
      ...(full ? { leaves: await leafInputs(pool, db, checkpoint.size) } : {}),
    },
    notYetCovered: events.length - covered.length,
  };
};

import { readStoredEvents, readStoredEventsAt } from '@cropcover/eventstore';
import { type AuditBundle, BUNDLE_FORMAT, type BundleFailure, consistencyProofRanges } from '@cropcover/verifiable-log';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { ReadModels } from '../read-models';
import { shownLeaves } from './audit-leaf-inputs';
import { loadCheckpoint, loadInclusionProofs, loadLeafIndexes, loadLeafPlaces, loadRangeHashes } from './audit-tree';

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

export interface ExportedBundle {
  readonly bundle: AuditBundle;
  /** Events of the stream the newest checkpoint does not cover yet: left out, named here. */
  readonly notYetCovered: number;
  /** Set when the signed tree holds revisions of the stream whose events the log no longer has: the
   *  bundle cannot show them, and says so as the verifier would (GAP before the last revision shown,
   *  TRUNCATED past it). */
  readonly failure?: { readonly failure: Extract<BundleFailure, 'GAP' | 'TRUNCATED'>; readonly detail: string };
}

const LEAVES_PER_READ = 10_000;

/** Every leaf input of a tree of `size`, as `GET /audit/leaves` shows them: an edited row gives an input
 *  that no longer rebuilds the signed root, a deleted one the envelope the integrator kept. */
const leafInputs = async (pool: pg.Pool, db: Kysely<ReadModels>, size: number): Promise<string[]> => {
  const inputs: string[] = [];
  for (let from = 0; from < size; from += LEAVES_PER_READ) {
    const places = await loadLeafPlaces(db, from, Math.min(LEAVES_PER_READ, size - from));
    for (const leaf of shownLeaves(places, await readStoredEventsAt(pool, places))) {
      if (leaf.input === null)
        throw new Error(
          `leaf ${leaf.leafIndex} (${leaf.stream} revision ${leaf.revision}): its event is missing from the log and its envelope was never kept, so the signed tree cannot be shown in full`,
        );
      inputs.push(leaf.input);
    }
  }
  return inputs;
};

/** The stream's revisions the tree of `size` holds but the log no longer does, as the verifier names them. */
const missingEvents = (
  stream: string,
  leafIndexOf: ReadonlyMap<number, number>,
  shown: readonly { readonly revision: number }[],
  size: number,
): ExportedBundle['failure'] => {
  const present = new Set(shown.map((event) => event.revision));
  const missing = [...leafIndexOf]
    .filter(([revision, leafIndex]) => leafIndex < size && !present.has(revision))
    .sort(([a], [b]) => a - b);
  const [first] = missing;
  if (!first) return undefined;
  const [revision, leafIndex] = first;
  const lastShown = Math.max(-1, ...present);
  const named = `${stream} revision ${revision} is leaf ${leafIndex} of the signed tree of ${size}, but its event is missing from the log`;
  return revision < lastShown
    ? { failure: 'GAP', detail: named }
    : { failure: 'TRUNCATED', detail: `${named} (past the last revision shown, ${lastShown})` };
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
    failure: missingEvents(stream, leafIndexOf, covered, checkpoint.size),
  };
};

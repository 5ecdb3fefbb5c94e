import type { AuditCheckpoint, AuditEvent } from '@cropcover/contracts';
import { checkpointOnTheWire, loadCheckpoint, loadInclusionProofs, loadLeafIndexes } from '@cropcover/read-store';
import { base64 } from '../../../../audit/audit-readers';
import type { QueryApiDeps } from '../../../../query-api-deps';

/** `?proofs=true` (SPEC §7 Audit): each event with the texts its leaf hashed, its `prev`, leaf hash, leaf
 *  index and inclusion proof against the newest signed checkpoint, and that checkpoint. An event the
 *  checkpoint does not cover yet has `proof: null` (and `leaf_index: null` until it is integrated). */
export const withProofs = async (
  deps: QueryApiDeps,
  streamId: string,
  items: readonly AuditEvent[],
): Promise<{ items: AuditEvent[]; checkpoint: AuditCheckpoint | null }> => {
  const unproven = { leaf_index: null, proof: null };
  if (!deps.storedLog) return { items: items.map((item) => ({ ...item, ...unproven })), checkpoint: null };
  // The checkpoint first: any leaf it covers is already in audit_leaves when the indexes are read.
  const checkpoint = await loadCheckpoint(deps.db);
  const [stored, leafIndexOf] = await Promise.all([
    deps.storedLog.readStoredEvents(streamId),
    loadLeafIndexes(deps.db, streamId),
  ]);
  const storedOf = new Map(stored.map((event) => [event.revision, event]));
  const covered = items.flatMap((item) => {
    const leafIndex = leafIndexOf.get(item.revision);
    return checkpoint && leafIndex !== undefined && leafIndex < checkpoint.size ? [leafIndex] : [];
  });
  const proofs = checkpoint ? await loadInclusionProofs(deps.db, covered, checkpoint.size) : [];
  const proofOf = new Map(covered.map((leafIndex, i) => [leafIndex, proofs[i]!]));
  return {
    items: items.map((item) => {
      const event = storedOf.get(item.revision);
      if (!event) return { ...item, ...unproven };
      const leafIndex = leafIndexOf.get(item.revision) ?? null;
      const proof = leafIndex === null ? undefined : proofOf.get(leafIndex);
      return {
        ...item,
        stored: { data: event.data, metadata: event.metadata },
        prev: base64(event.prev),
        leaf_hash: base64(event.leafHash),
        leaf_index: leafIndex,
        proof:
          proof && checkpoint
            ? { leaf_index: leafIndex!, tree_size: checkpoint.size, hashes: proof.map(base64) }
            : null,
      };
    }),
    checkpoint: checkpoint ? checkpointOnTheWire(checkpoint) : null,
  };
};

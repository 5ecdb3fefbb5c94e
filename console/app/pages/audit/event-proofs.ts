import type { ProvenAuditEvent } from '../../api/audit';
import { eventLeafHash, fromBase64, rootFromInclusionProof, sameBytes, toBase64 } from './log-proof';
import type { OpenedCheckpoint } from './signed-checkpoint';

// Each event of a policy checked as the offline verifier checks a bundle (verifiable-log's audit-bundle.ts),
// in the browser: the leaf recomputed from the stored bytes, the chain to the previous revision, and the
// inclusion proof against the signed checkpoint's root.

export type EventProof =
  | { readonly verdict: 'proven'; readonly leafIndex: number }
  | { readonly verdict: 'failing'; readonly reason: string }
  /** Appended after the checkpoint: the next one will cover it. */
  | { readonly verdict: 'pending'; readonly reason: string };

const GENESIS_PREV = toBase64(new Uint8Array(32));

const proveOne = async (
  stream: string,
  event: ProvenAuditEvent,
  previousLeaf: string,
  checkpoint: OpenedCheckpoint,
): Promise<EventProof> => {
  const leaf = await eventLeafHash({
    stream,
    revision: event.revision,
    eventId: event.event_id,
    type: event.type,
    data: event.stored.data,
    metadata: event.stored.metadata,
    prev: event.prev,
  });
  if (toBase64(leaf) !== event.leaf_hash)
    return { verdict: 'failing', reason: 'its stored bytes do not hash to its leaf' };
  if (event.prev !== previousLeaf)
    return { verdict: 'failing', reason: `its link is not the leaf of revision ${event.revision - 1}` };
  if (event.leaf_index === null || event.proof === null || event.leaf_index >= checkpoint.size)
    return { verdict: 'pending', reason: 'not yet in a signed checkpoint' };
  if (event.proof.tree_size !== checkpoint.size)
    return {
      verdict: 'failing',
      reason: `its proof is for a tree of ${event.proof.tree_size}, the checkpoint's has ${checkpoint.size}`,
    };
  const root = await rootFromInclusionProof(
    event.leaf_index,
    checkpoint.size,
    leaf,
    event.proof.hashes.map(fromBase64),
  );
  return root !== undefined && sameBytes(root, checkpoint.root)
    ? { verdict: 'proven', leafIndex: event.leaf_index }
    : { verdict: 'failing', reason: `its leaf is not in the signed tree of ${checkpoint.size}` };
};

/** The verdict on each event, in stream order; the chain is followed from revision 0. */
export const proveEvents = async (
  stream: string,
  events: readonly ProvenAuditEvent[],
  checkpoint: OpenedCheckpoint,
): Promise<EventProof[]> => {
  const proofs: EventProof[] = [];
  let previousLeaf = GENESIS_PREV;
  for (const event of events) {
    proofs.push(await proveOne(stream, event, previousLeaf, checkpoint));
    // What the log says this event's leaf is: a failing event is reported once, not again in its successor.
    previousLeaf = event.leaf_hash;
  }
  return proofs;
};

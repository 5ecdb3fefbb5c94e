import type { AuditCheckpoint } from '@cropcover/contracts';
import type { ProvenAuditEvent, ProvenEvents } from '../../api/audit';
import { eventLeafHash, fromBase64, rootFromInclusionProof, sameBytes, toBase64 } from './log-proof';
import { CheckpointRefused, type OpenedCheckpoint, openCheckpoint, type VerifierKey } from './signed-checkpoint';

// Each event of a policy checked as the offline verifier checks a bundle (verifiable-log's audit-bundle.ts),
// in the browser: the leaf recomputed from the stored bytes, the chain to the previous revision, and the
// inclusion proof against the root of the signed checkpoint its page came with.

export type EventProof =
  | { readonly verdict: 'proven'; readonly leafIndex: number }
  | { readonly verdict: 'failing'; readonly reason: string }
  /** Appended after the checkpoint: the next one will cover it. */
  | { readonly verdict: 'pending'; readonly reason: string };

/** A page's checkpoint as this browser found it: opened with a published key, refused, or none yet. */
type CheckedCheckpoint = OpenedCheckpoint | { readonly refused: string } | null;

const GENESIS_PREV = toBase64(new Uint8Array(32));

const proveOne = async (
  stream: string,
  event: ProvenAuditEvent,
  previousLeaf: string,
  checkpoint: CheckedCheckpoint,
): Promise<EventProof> => {
  const leaf = await eventLeafHash({
    stream,
    revision: event.revision,
    eventId: event.metadata.event_id,
    type: event.type,
    data: event.stored.data,
    metadata: event.stored.metadata,
    prev: event.prev,
  });
  if (toBase64(leaf) !== event.leaf_hash)
    return { verdict: 'failing', reason: 'its stored bytes do not hash to its leaf' };
  if (event.prev !== previousLeaf)
    return { verdict: 'failing', reason: `its link is not the leaf of revision ${event.revision - 1}` };
  if (checkpoint !== null && 'refused' in checkpoint)
    return { verdict: 'failing', reason: `the checkpoint is refused: ${checkpoint.refused}` };
  if (checkpoint === null || event.leaf_index === null || event.proof === null || event.leaf_index >= checkpoint.size)
    return { verdict: 'pending', reason: 'not yet in a signed checkpoint' };
  if (event.proof.tree_size !== checkpoint.size || event.proof.leaf_index !== event.leaf_index)
    return { verdict: 'failing', reason: `its proof is not one for leaf ${event.leaf_index} of ${checkpoint.size}` };
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

const checkCheckpoint = async (
  checkpoint: AuditCheckpoint | null,
  keys: readonly VerifierKey[],
): Promise<CheckedCheckpoint> => {
  if (checkpoint === null) return null;
  try {
    const opened = await openCheckpoint(checkpoint.note, keys);
    // The note is what is signed; the fields beside it must say the same.
    if (
      opened.size !== checkpoint.size ||
      opened.origin !== checkpoint.origin ||
      toBase64(opened.root) !== checkpoint.root
    )
      return { refused: 'its fields differ from its signed note' };
    return opened;
  } catch (error) {
    if (error instanceof CheckpointRefused || error instanceof DOMException) return { refused: error.message };
    throw error;
  }
};

export interface ProvenPolicy {
  /** Every event, in stream order, with its verdict. */
  readonly events: readonly { readonly event: ProvenAuditEvent; readonly proof: EventProof }[];
  /** The newest checkpoint the pages came with, as checked here. */
  readonly checkpoint: CheckedCheckpoint;
}

/** The verdict on each event; the chain is followed from revision 0. Every check is independent of the
 *  others (the chain compares each event's link with the leaf the log gives its predecessor), so they run
 *  side by side rather than each waiting for the previous one's digests (WebCrypto hashes off the main
 *  thread). */
export const provePolicyEvents = async (
  stream: string,
  { pages }: ProvenEvents,
  keys: readonly VerifierKey[],
): Promise<ProvenPolicy> => {
  const checkpoints = await Promise.all(pages.map((page) => checkCheckpoint(page.checkpoint, keys)));
  const checks: Promise<{ event: ProvenAuditEvent; proof: EventProof }>[] = [];
  let previousLeaf = GENESIS_PREV;
  pages.forEach((page, index) => {
    for (const event of page.events) {
      const linked = previousLeaf;
      checks.push(proveOne(stream, event, linked, checkpoints[index]!).then((proof) => ({ event, proof })));
      // What the log says this event's leaf is: a failing event is reported once, not again in its successor.
      previousLeaf = event.leaf_hash;
    }
  });
  return { events: await Promise.all(checks), checkpoint: checkpoints.at(-1) ?? null };
};

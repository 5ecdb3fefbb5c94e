import type { AuditCheckpoint } from '@cropcover/contracts';
import {
  eventLeafHash,
  fromBase64,
  NoteError,
  type NoteVerifier,
  openCheckpoint,
  rootFromInclusionProof,
  type SignedCheckpoint,
  sameBytes,
  toBase64,
} from '@cropcover/verifiable-log';
import type { ProvenAuditEvent, ProvenEvents } from '../../api/audit';

// Each event of a policy checked as the offline verifier checks a bundle (verifiable-log's audit-bundle.ts),
// in the browser and with its very code: the leaf recomputed from the stored bytes, the chain to the
// previous revision, and the inclusion proof against the root of the signed checkpoint its page came with.

export type EventProof =
  | { readonly verdict: 'proven'; readonly leafIndex: number }
  | { readonly verdict: 'failing'; readonly reason: string }
  /** Appended after the checkpoint: the next one will cover it. */
  | { readonly verdict: 'pending'; readonly reason: string };

/** A checkpoint a published key's signature verified. */
export interface OpenedCheckpoint extends SignedCheckpoint {
  readonly signedBy: NoteVerifier;
}

/** A page's checkpoint as this browser found it: opened with a published key, refused, or none yet. */
type CheckedCheckpoint = OpenedCheckpoint | { readonly refused: string } | null;

const GENESIS_PREV = toBase64(new Uint8Array(32));

const proveOne = (
  stream: string,
  event: ProvenAuditEvent,
  previousLeaf: string,
  checkpoint: CheckedCheckpoint,
): EventProof => {
  const leaf = eventLeafHash({
    stream,
    revision: event.revision,
    eventId: event.metadata.event_id,
    type: event.type,
    data: event.stored.data,
    metadata: event.stored.metadata,
    prev: fromBase64(event.prev),
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
  const root = rootFromInclusionProof(event.leaf_index, checkpoint.size, leaf, event.proof.hashes.map(fromBase64));
  return root !== undefined && sameBytes(root, checkpoint.root)
    ? { verdict: 'proven', leafIndex: event.leaf_index }
    : { verdict: 'failing', reason: `its leaf is not in the signed tree of ${checkpoint.size}` };
};

const checkCheckpoint = (checkpoint: AuditCheckpoint | null, keys: readonly NoteVerifier[]): CheckedCheckpoint => {
  if (checkpoint === null) return null;
  try {
    const { verifiedBy, ...opened } = openCheckpoint(checkpoint.note, keys);
    // The note is what is signed; the fields beside it must say the same.
    if (
      opened.size !== checkpoint.size ||
      opened.origin !== checkpoint.origin ||
      toBase64(opened.root) !== checkpoint.root
    )
      return { refused: 'its fields differ from its signed note' };
    return { ...opened, signedBy: verifiedBy[0]! };
  } catch (error) {
    if (error instanceof NoteError) return { refused: error.message };
    throw error;
  }
};

export interface ProvenPolicy {
  /** Every event, in stream order, with its verdict. */
  readonly events: readonly { readonly event: ProvenAuditEvent; readonly proof: EventProof }[];
  /** The newest checkpoint the pages came with, as checked here. */
  readonly checkpoint: CheckedCheckpoint;
}

/** The verdict on each event; the chain is followed from revision 0, comparing each event's link with the
 *  leaf the log gives its predecessor. */
export const provePolicyEvents = (
  stream: string,
  { pages }: ProvenEvents,
  keys: readonly NoteVerifier[],
): ProvenPolicy => {
  const checkpoints = pages.map((page) => checkCheckpoint(page.checkpoint, keys));
  const events: { event: ProvenAuditEvent; proof: EventProof }[] = [];
  let previousLeaf = GENESIS_PREV;
  pages.forEach((page, index) => {
    for (const event of page.events) {
      events.push({ event, proof: proveOne(stream, event, previousLeaf, checkpoints[index]!) });
      // What the log says this event's leaf is: a failing event is reported once, not again in its successor.
      previousLeaf = event.leaf_hash;
    }
  });
  return { events, checkpoint: checkpoints.at(-1) ?? null };
};

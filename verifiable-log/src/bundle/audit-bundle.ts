import { fromBase64, sameBytes, utf8 } from '../bytes';
import { eventLeafHash, GENESIS_PREV } from '../event-leaf/event-leaf';
import { TreeFrontier } from '../merkle/tree-frontier';
import { leafHash } from '../merkle/tree-hashes';
import { verifyConsistency, verifyInclusion } from '../merkle/verify-proofs';
import { openCheckpoint, type SignedCheckpoint } from '../signed-note/checkpoint';
import type { NoteVerifier } from '../signed-note/note-keys';

// The export bundle and its offline verification (docs/audit-bundle.md): one stream's events as stored,
// each with its leaf index and inclusion proof against one signed checkpoint, and consistency proofs from
// earlier checkpoints to it. Verifying needs this file, the log's public keys and, for truncation and
// forks, checkpoints the auditor holds from elsewhere: nothing of the service.

export const BUNDLE_FORMAT = 'cropcover.audit-bundle/v1';

export interface BundleEvent {
  readonly revision: number;
  readonly event_id: string;
  readonly type: string;
  /** The stored RFC 8785 texts, exactly as hashed. */
  readonly data: string;
  readonly metadata: string;
  /** base64: the previous revision's leaf hash, and this event's leaf hash as the log stored them. */
  readonly prev: string;
  readonly leaf_hash: string;
  readonly leaf_index: number;
  /** Inclusion proof in the checkpoint's tree, base64 hashes bottom up. */
  readonly proof: readonly string[];
}

export interface AuditBundle {
  readonly format: typeof BUNDLE_FORMAT;
  readonly stream: string;
  readonly events: readonly BundleEvent[];
  /** The signed note every proof is against. */
  readonly checkpoint: string;
  /** From smaller sizes the log signed to the checkpoint's size. */
  readonly consistency: readonly { readonly from_size: number; readonly hashes: readonly string[] }[];
  /** Full mode: every leaf input of the checkpoint's tree, in tree order (the envelopes' canonical JSON).
   *  They must rebuild the signed root, and then no leaf of the stream may lie past the last event shown. */
  readonly leaves?: readonly string[];
}

/** What can be wrong, each with the verifier's exit code. */
export const FAILURE_EXIT_CODES = {
  DATA_MISMATCH: 3,
  CHAIN_BREAK: 4,
  GAP: 5,
  TRUNCATED: 6,
  ROOT_MISMATCH: 7,
  FORK: 8,
  BAD_SIGNATURE: 9,
} as const;
export type BundleFailure = keyof typeof FAILURE_EXIT_CODES;

export type BundleVerdict =
  | {
      readonly ok: true;
      readonly checkpoint: SignedCheckpoint;
      readonly events: number;
      /** Full mode ran: no event of the stream is in the signed tree beyond those shown. */
      readonly complete: boolean;
    }
  | {
      readonly ok: false;
      readonly failure: BundleFailure;
      readonly detail: string;
      readonly evidence?: readonly string[];
    };

const fail = (failure: BundleFailure, detail: string, evidence?: readonly string[]): BundleVerdict => ({
  ok: false,
  failure,
  detail,
  ...(evidence ? { evidence } : {}),
});

const opened = (note: string, keys: readonly NoteVerifier[]): SignedCheckpoint | undefined => {
  try {
    return openCheckpoint(note, keys);
  } catch {
    return undefined;
  }
};

/** Full mode: the leaves rebuild the signed root, then the stream's leaves among them end where the bundle's
 *  events do. A leaf input is small and names its stream and revision (docs/audit-bundle.md, "The leaf"). */
const hiddenEvents = (bundle: AuditBundle, leaves: readonly string[], checkpoint: SignedCheckpoint) => {
  if (leaves.length !== checkpoint.size)
    return fail('ROOT_MISMATCH', `the bundle has ${leaves.length} leaves; the signed tree ${checkpoint.size}`);
  const tree = new TreeFrontier();
  for (const input of leaves) tree.append(leafHash(utf8(input)));
  if (!sameBytes(tree.root(), checkpoint.root))
    return fail('ROOT_MISMATCH', `the bundle's leaves do not rebuild the signed root of ${checkpoint.size}`);
  const lastShown = bundle.events.length - 1;
  for (const [index, input] of leaves.entries()) {
    const { stream, rev } = JSON.parse(input) as { stream?: unknown; rev?: unknown };
    if (stream === bundle.stream && typeof rev === 'number' && rev > lastShown)
      return fail(
        'TRUNCATED',
        `${bundle.stream} revision ${rev} is leaf ${index} of the signed tree, past the last revision shown (${lastShown})`,
        [checkpoint.note],
      );
  }
  return undefined;
};

/** Checks, in order: signatures; revisions 0…n contiguous; each `prev` the previous leaf; each leaf
 *  recomputed from the stored bytes; each inclusion proof against the signed root; in full mode, that no
 *  leaf of the stream lies past the last event shown; then every held checkpoint against the bundle's
 *  (TRUNCATED when a held one is larger, FORK when one is inconsistent). */
export const verifyAuditBundle = (
  bundle: AuditBundle,
  keys: readonly NoteVerifier[],
  heldCheckpoints: readonly string[] = [],
): BundleVerdict => {
  if (bundle.format !== BUNDLE_FORMAT) throw new Error(`not a ${BUNDLE_FORMAT} bundle`);
  const checkpoint = opened(bundle.checkpoint, keys);
  if (!checkpoint) return fail('BAD_SIGNATURE', "the bundle's checkpoint is not signed by a trusted key");
  const held: SignedCheckpoint[] = [];
  for (const note of heldCheckpoints) {
    const checked = opened(note, keys);
    if (!checked) return fail('BAD_SIGNATURE', 'a held checkpoint is not signed by a trusted key', [note]);
    held.push(checked);
  }

  const where = (event: BundleEvent) => `${bundle.stream} revision ${event.revision}`;
  let previousLeaf: Uint8Array = GENESIS_PREV;
  for (const [position, event] of bundle.events.entries()) {
    if (event.revision !== position)
      return fail('GAP', `${bundle.stream}: revision ${position} is missing (found ${event.revision})`);
    if (!sameBytes(fromBase64(event.prev), previousLeaf))
      return fail('CHAIN_BREAK', `${where(event)}: prev is not the leaf of revision ${position - 1}`);
    const recomputed = eventLeafHash({
      stream: bundle.stream,
      revision: event.revision,
      eventId: event.event_id,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
      prev: fromBase64(event.prev),
    });
    if (!sameBytes(recomputed, fromBase64(event.leaf_hash)))
      return fail('DATA_MISMATCH', `${where(event)}: its stored bytes do not hash to its leaf`);
    if (!verifyInclusion(event.leaf_index, checkpoint.size, recomputed, event.proof.map(fromBase64), checkpoint.root))
      return fail('ROOT_MISMATCH', `${where(event)}: its leaf is not in the signed tree of ${checkpoint.size}`);
    previousLeaf = recomputed;
  }
  const hidden = bundle.leaves && hiddenEvents(bundle, bundle.leaves, checkpoint);
  if (hidden) return hidden;

  for (const anchor of held) {
    if (anchor.size > checkpoint.size)
      return fail(
        'TRUNCATED',
        `a held checkpoint has ${anchor.size} leaves; the bundle's log only ${checkpoint.size}`,
        [anchor.note, checkpoint.note],
      );
    const proof = bundle.consistency.find((candidate) => candidate.from_size === anchor.size);
    const consistent =
      anchor.size === checkpoint.size
        ? sameBytes(anchor.root, checkpoint.root)
        : proof !== undefined &&
          verifyConsistency(anchor.size, checkpoint.size, anchor.root, checkpoint.root, proof.hashes.map(fromBase64));
    if (!consistent)
      return fail(
        'FORK',
        `the held checkpoint of ${anchor.size} and the bundle's of ${checkpoint.size} are not one log`,
        [anchor.note, checkpoint.note],
      );
  }
  return { ok: true, checkpoint, events: bundle.events.length, complete: bundle.leaves !== undefined };
};

// The verifiable log: pure functions over bytes, nothing of the service, so the offline verifier runs from
// an export bundle alone (docs/audit-bundle.md); and nothing of Node (hashes and signatures are @noble's,
// audited, synchronous, pure JavaScript), so the console checks events in the browser with this same code.

// The export bundle and its offline verification
export {
  type AuditBundle,
  BUNDLE_FORMAT,
  type BundleEvent,
  type BundleFailure,
  type BundleVerdict,
  FAILURE_EXIT_CODES,
  verifyAuditBundle,
} from './bundle/audit-bundle';
// Bytes as the log writes them (base64, UTF-8)
export { fromBase64, sameBytes, toBase64 } from './bytes';
// RFC 8785 canonical JSON
export { type CanonicalValue, canonicalJson, NotCanonicalizableError } from './canonical-json';
// The event leaf and the per-stream chain
export {
  eventLeafHash,
  GENESIS_PREV,
  type HashedEvent,
  LEAF_VERSION,
  type LeafEnvelope,
  leafEnvelopeOf,
  leafEnvelopeOfHashes,
  leafInputOf,
  type StoredEvent,
} from './event-leaf/event-leaf';
// The RFC 6962 tree: hashes, proofs and their verification
export { MemoryTree } from './merkle/memory-tree';
export { consistencyProofRanges, inclusionProofRanges, type LeafRange } from './merkle/proof-ranges';
export { type Subtree, TreeFrontier } from './merkle/tree-frontier';
export {
  EMPTY_ROOT,
  HASH_BYTES,
  leafHash,
  nodeHash,
  rangeHash,
  type SubtreeId,
  subtreesOf,
} from './merkle/tree-hashes';
export { rootFromInclusionProof, verifyConsistency, verifyInclusion } from './merkle/verify-proofs';
// Signed checkpoints (C2SP signed note, Ed25519)
export {
  type Checkpoint,
  checkpointText,
  openCheckpoint,
  type SignedCheckpoint,
  signCheckpoint,
} from './signed-note/checkpoint';
export {
  generateSignerKey,
  NoteKeyError,
  type NoteSigner,
  type NoteVerifier,
  parseSignerKey,
  parseVerifierKey,
} from './signed-note/note-keys';
export { NoteError, type OpenedNote, openNote, signNote } from './signed-note/signed-note';

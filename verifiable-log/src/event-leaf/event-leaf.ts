import { sha256 } from '@noble/hashes/sha2.js';
import { toBase64, utf8 } from '../bytes';
import { canonicalJson } from '../canonical-json';
import { HASH_BYTES, leafHash } from '../merkle/tree-hashes';

// What the tree commits to for one event (docs/audit-bundle.md, "The leaf"): a small, content-free envelope
// over the event's stored bytes, so an auditor can fetch every leaf of the log without seeing other
// policies' data, and personal data can be shredded without breaking the log.

export const LEAF_VERSION = 1;

/** The `prev` of a stream's first event. */
export const GENESIS_PREV = new Uint8Array(HASH_BYTES);

/** An event as stored: `data` and `metadata` are the exact texts the log hashed (RFC 8785 canonical JSON). */
export interface StoredEvent {
  readonly stream: string;
  readonly revision: number;
  readonly eventId: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
  /** The leaf hash of the stream's previous revision (GENESIS_PREV at revision 0). */
  readonly prev: Uint8Array;
}

export interface LeafEnvelope {
  readonly v: number;
  readonly stream: string;
  readonly rev: number;
  readonly eventId: string;
  readonly type: string;
  readonly prev: string;
  readonly dataHash: string;
  readonly metaHash: string;
}

/** An event known by the hashes its leaf took rather than by its texts: what the integrator keeps of each
 *  leaf, so a leaf stays showable once its event is gone. */
export interface HashedEvent {
  readonly stream: string;
  readonly revision: number;
  readonly eventId: string;
  readonly type: string;
  readonly prev: Uint8Array;
  readonly dataHash: Uint8Array;
  readonly metaHash: Uint8Array;
}

export const leafEnvelopeOfHashes = (event: HashedEvent): LeafEnvelope => ({
  v: LEAF_VERSION,
  stream: event.stream,
  rev: event.revision,
  eventId: event.eventId,
  type: event.type,
  prev: toBase64(event.prev),
  dataHash: toBase64(event.dataHash),
  metaHash: toBase64(event.metaHash),
});

/** SHA-256 of a stored text's UTF-8 bytes. */
const storedTextHash = (text: string): Uint8Array => sha256(utf8(text));

export const leafEnvelopeOf = (event: StoredEvent): LeafEnvelope =>
  leafEnvelopeOfHashes({ ...event, dataHash: storedTextHash(event.data), metaHash: storedTextHash(event.metadata) });

/** The leaf input: the UTF-8 bytes of the envelope's canonical JSON. */
export const leafInputOf = (envelope: LeafEnvelope): Uint8Array => utf8(canonicalJson(envelope));

/** SHA-256(0x00 ‖ leaf input): the event's leaf in the tree, and the next revision's `prev`. */
export const eventLeafHash = (event: StoredEvent): Uint8Array => leafHash(leafInputOf(leafEnvelopeOf(event)));

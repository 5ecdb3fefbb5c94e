// The browser's own check of an event against the log (SPEC §7 Audit, verifiable-log's event-leaf.ts and
// verify-proofs.ts): the leaf recomputed from the event's stored bytes, and the root its inclusion proof
// comes to, with WebCrypto's SHA-256. Nothing here trusts a hash the API computed.

const LEAF_PREFIX = 0x00;
const NODE_PREFIX = 0x01;
export const HASH_BYTES = 32;
const LEAF_VERSION = 1;

const utf8 = new TextEncoder();

export const fromBase64 = (text: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

export const toBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

export const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((byte, index) => byte === b[index]);

const sha256 = async (...parts: readonly Uint8Array[]): Promise<Uint8Array> => {
  const input = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    input.set(part, at);
    at += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', input));
};

/** RFC 6962 §2.1: SHA-256(0x00 ‖ leaf input). */
export const leafHash = (input: Uint8Array): Promise<Uint8Array> => sha256(Uint8Array.of(LEAF_PREFIX), input);

/** RFC 6962 §2.1: SHA-256(0x01 ‖ left ‖ right). */
export const nodeHash = (left: Uint8Array, right: Uint8Array): Promise<Uint8Array> =>
  sha256(Uint8Array.of(NODE_PREFIX), left, right);

/** An event as the log stored it: the texts it hashed, and the chain link it carries. */
export interface StoredEventBytes {
  readonly stream: string;
  readonly revision: number;
  readonly eventId: string;
  readonly type: string;
  /** RFC 8785 texts, exactly as stored and hashed. */
  readonly data: string;
  readonly metadata: string;
  /** base64: the leaf hash of the stream's previous revision. */
  readonly prev: string;
}

/** The leaf input: the RFC 8785 text of the leaf envelope. Its members are written in RFC 8785's order
 *  (sorted keys) and are strings and integers only, whose JSON forms RFC 8785 takes from JSON.stringify. */
export const leafEnvelopeText = async (event: StoredEventBytes): Promise<string> => {
  const [dataHash, metaHash] = await Promise.all([
    sha256(utf8.encode(event.data)),
    sha256(utf8.encode(event.metadata)),
  ]);
  return JSON.stringify({
    dataHash: toBase64(dataHash),
    eventId: event.eventId,
    metaHash: toBase64(metaHash),
    prev: event.prev,
    rev: event.revision,
    stream: event.stream,
    type: event.type,
    v: LEAF_VERSION,
  });
};

/** The event's leaf hash, from its stored bytes. */
export const eventLeafHash = async (event: StoredEventBytes): Promise<Uint8Array> =>
  leafHash(utf8.encode(await leafEnvelopeText(event)));

/** The root a leaf and its inclusion proof come to (RFC 9162 §2.1.3.2), or undefined when the proof
 *  cannot be one for this index and size. */
export const rootFromInclusionProof = async (
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
): Promise<Uint8Array | undefined> => {
  if (index < 0 || index >= size || leaf.length !== HASH_BYTES) return undefined;
  if (proof.some((hash) => hash.length !== HASH_BYTES)) return undefined;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      r = await nodeHash(p, r);
      if (fn % 2 === 0)
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
    } else {
      r = await nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : undefined;
};

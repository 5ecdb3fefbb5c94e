import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, fromBase64, toBase64, uint32At, utf8 } from '../bytes';

// C2SP signed-note keys (https://c2sp.org/signed-note), algorithm Ed25519 (signature type 0x01).
// Key id = the first 4 bytes of SHA-256(name ‖ "\n" ‖ 0x01 ‖ public key). A verifier key is written
// `<name>+<key id, 8 hex>+<base64(0x01 ‖ public key)>`, a signer key `PRIVATE+KEY+<name>+<key id>+<base64(0x01 ‖ seed)>`.

const ED25519 = 0x01;
const KEY_BYTES = 32;

export class NoteKeyError extends Error {}

export interface NoteVerifier {
  readonly name: string;
  /** 4 bytes, as a big-endian number. */
  readonly keyId: number;
  /** The raw 32-byte Ed25519 public key. */
  readonly publicKey: Uint8Array;
  /** The verifier key text. */
  readonly vkey: string;
}

export interface NoteSigner {
  readonly name: string;
  readonly keyId: number;
  /** The 32-byte Ed25519 seed (RFC 8032's private key). */
  readonly privateKey: Uint8Array;
  readonly verifier: NoteVerifier;
}

/** Splits at the first `count` '+' (base64 has '+' of its own, a key name none). */
const fields = (text: string, count: number): string[] => {
  const parts: string[] = [];
  let rest = text.trim();
  for (let i = 0; i < count; i++) {
    const at = rest.indexOf('+');
    if (at < 0) return [];
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + 1);
  }
  return [...parts, rest];
};

const validName = (name: string): boolean => name.length > 0 && !/[\s+]/u.test(name);

const keyIdOf = (name: string, rawPublic: Uint8Array): number =>
  uint32At(sha256(concatBytes(utf8(`${name}\n`), Uint8Array.of(ED25519), rawPublic)));

const hex8 = (keyId: number): string => keyId.toString(16).padStart(8, '0');

const verifierOf = (name: string, rawPublic: Uint8Array): NoteVerifier => {
  if (!validName(name)) throw new NoteKeyError(`"${name}" is not a key name (no spaces, no +)`);
  if (rawPublic.length !== KEY_BYTES) throw new NoteKeyError('an Ed25519 public key is 32 bytes');
  const keyId = keyIdOf(name, rawPublic);
  return {
    name,
    keyId,
    publicKey: rawPublic,
    vkey: `${name}+${hex8(keyId)}+${toBase64(concatBytes(Uint8Array.of(ED25519), rawPublic))}`,
  };
};

/** Reads a verifier key text; refuses one whose key id does not match its name and key. */
export const parseVerifierKey = (vkey: string): NoteVerifier => {
  const [name, id, key] = fields(vkey, 2);
  if (!name || !id || !key) throw new NoteKeyError('a verifier key is <name>+<key id>+<key>');
  const bytes = fromBase64(key);
  if (bytes[0] !== ED25519) throw new NoteKeyError('only Ed25519 verifier keys (type 0x01) are known');
  const verifier = verifierOf(name, bytes.subarray(1));
  if (hex8(verifier.keyId) !== id.toLowerCase()) throw new NoteKeyError(`the key id ${id} does not match the key`);
  return verifier;
};

const signerFromSeed = (name: string, seed: Uint8Array): NoteSigner => {
  if (seed.length !== KEY_BYTES) throw new NoteKeyError('an Ed25519 private key is a 32-byte seed');
  const verifier = verifierOf(name, ed25519.getPublicKey(seed));
  return { name, keyId: verifier.keyId, privateKey: seed, verifier };
};

/** Reads a signer key text (`PRIVATE+KEY+<name>+<key id>+<base64(0x01 ‖ seed)>`). */
export const parseSignerKey = (skey: string): NoteSigner => {
  const parts = fields(skey, 4);
  const [, , name, id, key] = parts;
  if (parts[0] !== 'PRIVATE' || parts[1] !== 'KEY' || !name || !id || !key)
    throw new NoteKeyError('a signer key is PRIVATE+KEY+<name>+<key id>+<key>');
  const bytes = fromBase64(key);
  if (bytes[0] !== ED25519) throw new NoteKeyError('only Ed25519 signer keys (type 0x01) are known');
  const signer = signerFromSeed(name, bytes.subarray(1));
  if (hex8(signer.keyId) !== id.toLowerCase()) throw new NoteKeyError(`the key id ${id} does not match the key`);
  return signer;
};

/** A new signer key text for `name` (the `audit keygen` of operations, and tests). */
export const generateSignerKey = (name: string): string => {
  const signer = signerFromSeed(name, ed25519.utils.randomSecretKey());
  return `PRIVATE+KEY+${name}+${hex8(signer.keyId)}+${toBase64(concatBytes(Uint8Array.of(ED25519), signer.privateKey))}`;
};

import { fromBase64, HASH_BYTES, toBase64 } from './log-proof';

// A C2SP signed checkpoint checked in the browser (verifiable-log's signed-note/): the verifier key's id
// recomputed from its name and key, and the Ed25519 signature checked with WebCrypto, which Chromium has
// shipped since version 137 (and Firefox and Safari before it): no library needed, none bundled.

const ED25519 = 0x01;
const SIGNATURE_PREFIX = '\u2014 ';
const utf8 = new TextEncoder();

export class CheckpointRefused extends Error {}

export interface VerifierKey {
  readonly name: string;
  readonly keyId: number;
  readonly publicKey: Uint8Array<ArrayBuffer>;
}

/** `<name>+<key id, 8 hex>+<base64(0x01 ‖ public key)>`; refused when the id does not match name and key. */
export const parseVerifierKey = async (vkey: string): Promise<VerifierKey> => {
  const [name, id, ...rest] = vkey.trim().split('+');
  const key = rest.join('+'); // base64 has '+' of its own, a key name none
  if (!name || !id || !key) throw new CheckpointRefused('a verifier key is <name>+<key id>+<key>');
  const bytes = fromBase64(key);
  if (bytes[0] !== ED25519 || bytes.length !== 33) throw new CheckpointRefused('not an Ed25519 verifier key');
  const publicKey = bytes.slice(1);
  const digest = new Uint8Array(
    await crypto.subtle.digest('SHA-256', new Uint8Array([...utf8.encode(`${name}\n`), ED25519, ...publicKey])),
  );
  const keyId = new DataView(digest.buffer).getUint32(0);
  if (keyId.toString(16).padStart(8, '0') !== id.toLowerCase())
    throw new CheckpointRefused(`the key id ${id} does not match the key`);
  return { name, keyId, publicKey };
};

export interface OpenedCheckpoint {
  readonly origin: string;
  readonly size: number;
  readonly root: Uint8Array;
  /** The key whose signature verified. */
  readonly signedBy: VerifierKey;
}

/** Checks a signed note's signatures against the known keys and reads the checkpoint it carries; refuses
 *  one no known key signed, or one a known key's line does not verify (forged or re-signed). */
export const openCheckpoint = async (note: string, keys: readonly VerifierKey[]): Promise<OpenedCheckpoint> => {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new CheckpointRefused('not a signed note');
  const text = note.slice(0, split + 1);
  let signedBy: VerifierKey | undefined;
  for (const line of note.slice(split + 2, -1).split('\n')) {
    if (!line.startsWith(SIGNATURE_PREFIX)) throw new CheckpointRefused(`not a signature line: ${line}`);
    const [name, encoded] = line.slice(SIGNATURE_PREFIX.length).split(' ');
    const bytes = fromBase64(encoded ?? '');
    if (bytes.length < 5) throw new CheckpointRefused(`a signature of ${name} is too short`);
    const keyId = new DataView(bytes.buffer).getUint32(0);
    const key = keys.find((candidate) => candidate.name === name && candidate.keyId === keyId);
    if (key === undefined) continue; // another party's signature (a witness): not ours to check
    const publicKey = await crypto.subtle.importKey('raw', key.publicKey, { name: 'Ed25519' }, false, ['verify']);
    if (!(await crypto.subtle.verify({ name: 'Ed25519' }, publicKey, bytes.slice(4), utf8.encode(text))))
      throw new CheckpointRefused(`the signature of ${name} does not verify`);
    signedBy = key;
  }
  if (signedBy === undefined) throw new CheckpointRefused('no published key signed this checkpoint');
  const [origin, size, root] = text.split('\n');
  const rootBytes = fromBase64(root ?? '');
  if (
    !origin ||
    !size ||
    !/^(0|[1-9][0-9]*)$/.test(size) ||
    rootBytes.length !== HASH_BYTES ||
    toBase64(rootBytes) !== root
  )
    throw new CheckpointRefused('a checkpoint is an origin, a decimal size and a base64 root');
  return { origin, size: Number(size), root: rootBytes, signedBy };
};

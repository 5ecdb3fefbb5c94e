import { ed25519 } from '@noble/curves/ed25519.js';
import { concatBytes, fromBase64, toBase64, uint32At, uint32Bytes, utf8 } from '../bytes';
import type { NoteSigner, NoteVerifier } from './note-keys';

// A C2SP signed note: the text (non-empty lines, each ending in "\n"), a blank line, then one line per
// signature, "— <key name> <base64(key id, 4 bytes ‖ signature)>\n". The signature is over the text.

const SIGNATURE_PREFIX = '\u2014 ';

export class NoteError extends Error {}

/** RFC 8032's strict verification, as OpenSSL's: non-canonical encodings refused (not ZIP-215's leniency),
 *  and a signature of the wrong length is one that does not verify rather than an error. */
const verifiesEd25519 = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean =>
  signature.length === 64 && ed25519.verify(signature, message, publicKey, { zip215: false });

export const signNote = (text: string, signers: readonly NoteSigner[]): string => {
  if (!text.endsWith('\n') || text.includes('\n\n')) throw new NoteError('a note text is lines ending in a newline');
  const lines = signers.map((signer) => {
    const signature = ed25519.sign(utf8(text), signer.privateKey);
    return `${SIGNATURE_PREFIX}${signer.name} ${toBase64(concatBytes(uint32Bytes(signer.keyId), signature))}\n`;
  });
  return `${text}\n${lines.join('')}`;
};

export interface OpenedNote {
  readonly text: string;
  /** The known keys whose signature verified. */
  readonly verifiedBy: readonly NoteVerifier[];
}

/** Splits a note and checks its signatures against the known keys; refuses a note no known key signed,
 *  or one that a known key's line does not verify (a forged or re-signed note). */
export const openNote = (note: string, verifiers: readonly NoteVerifier[]): OpenedNote => {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new NoteError('a signed note has a text, a blank line and signatures');
  const text = note.slice(0, split + 1);
  const signatureLines = note.slice(split + 2, -1).split('\n');
  const verifiedBy: NoteVerifier[] = [];
  for (const line of signatureLines) {
    if (!line.startsWith(SIGNATURE_PREFIX)) throw new NoteError(`not a signature line: ${line}`);
    const [name, encoded, ...rest] = line.slice(SIGNATURE_PREFIX.length).split(' ');
    if (!name || !encoded || rest.length > 0) throw new NoteError(`not a signature line: ${line}`);
    const bytes = fromBase64(encoded);
    if (bytes.length < 5) throw new NoteError(`a signature of ${name} is too short`);
    const keyId = uint32At(bytes);
    const verifier = verifiers.find((candidate) => candidate.name === name && candidate.keyId === keyId);
    if (!verifier) continue; // another party's signature (a witness): not ours to check
    if (!verifiesEd25519(bytes.subarray(4), utf8(text), verifier.publicKey))
      throw new NoteError(`the signature of ${name} does not verify`);
    verifiedBy.push(verifier);
  }
  if (verifiedBy.length === 0) throw new NoteError('no known key signed this note');
  return { text, verifiedBy };
};

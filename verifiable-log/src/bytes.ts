// Bytes and their texts, the same in Node and in a browser (no Buffer): what the log's hashes and signed
// notes are written in.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Map([...ALPHABET].map((char, value) => [char, value]));
// Node's Buffer read base64url's two letters as well; a decoder that refused them would refuse proofs it passed.
VALUES.set('-', 62);
VALUES.set('_', 63);

const utf8Encoder = new TextEncoder();

export const utf8 = (text: string): Uint8Array => utf8Encoder.encode(text);

/** Standard base64, padded. */
export const toBase64 = (bytes: Uint8Array): string => {
  let text = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b = 0, c = 0] = [bytes[i]!, bytes[i + 1], bytes[i + 2]];
    const group = (a << 16) | (b << 8) | c;
    text += ALPHABET[group >> 18]! + ALPHABET[(group >> 12) & 63]!;
    text += i + 1 < bytes.length ? ALPHABET[(group >> 6) & 63]! : '=';
    text += i + 2 < bytes.length ? ALPHABET[group & 63]! : '=';
  }
  return text;
};

/** Reads base64 as Node's Buffer does: characters outside the alphabet are skipped and the first '=' ends
 *  it, so a malformed text gives other bytes rather than an exception; callers that need a canonical text
 *  compare it with `toBase64` of the bytes. */
export const fromBase64 = (text: string): Uint8Array => {
  const bytes: number[] = [];
  let bits = 0;
  let held = 0;
  for (const char of text) {
    if (char === '=') break;
    const value = VALUES.get(char);
    if (value === undefined) continue;
    bits = ((bits << 6) | value) & 0xffffff;
    held += 6;
    if (held >= 8) {
      held -= 8;
      bytes.push((bits >> held) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
};

export const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((byte, i) => byte === b[i]);

export const concatBytes = (...parts: readonly Uint8Array[]): Uint8Array => {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
};

/** The first four bytes as a big-endian number (a signed note's key id). */
export const uint32At = (bytes: Uint8Array): number =>
  ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;

export const uint32Bytes = (value: number): Uint8Array =>
  Uint8Array.of(value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);

import { createCipheriv, createDecipheriv, type KeyObject, randomBytes } from 'node:crypto';

// An event's personal values sealed with its farmer's data key (AES-256-GCM). Each value's place in the
// event holds the text `sealed:v2:<farmer_id>:<base64 of iv ‖ tag ‖ its ciphertext>`, so the log's hashes
// cover only ciphertext and a reader knows whose key opens it without the event's context. All the
// values of one event are one AES-GCM operation (one iv and tag, which each value carries): a rebuild
// opens one cipher per event, not one per value (docs/benchmarks.md, issue 25). GCM's ciphertext is as
// long as its plaintext, so each value keeps its own slice and reads erased on its own. The additional
// data is the farmer, the event type and each value's path and length, in the order given (the order of
// PERSONAL_FIELDS): a value moved to another farmer, event or field, bytes moved between values, or a
// value dropped, and nothing opens.
// `sealed:v1:` values, sealed one by one with the farmer and path as additional data, are what logs
// written before v2 hold; they still open.

const V1 = 'sealed:v1:';
const V2 = 'sealed:v2:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = IV_BYTES + TAG_BYTES;

const additionalData = (farmerId: string, eventType: string, paths: readonly string[], lengths: readonly number[]) => {
  let text = `${V2}\u0000${farmerId}\u0000${eventType}`;
  for (let index = 0; index < paths.length; index += 1) text += `\u0000${paths[index]}=${lengths[index]}`;
  return Buffer.from(text, 'utf8');
};

/** The values of one event at `paths`, sealed together: each one's sealed text. */
export const sealValues = (
  texts: readonly string[],
  paths: readonly string[],
  farmerId: string,
  eventType: string,
  key: KeyObject,
): string[] => {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(
    additionalData(
      farmerId,
      eventType,
      paths,
      texts.map((text) => Buffer.byteLength(text, 'utf8')),
    ),
  );
  const pieces = texts.map((text) => cipher.update(text, 'utf8'));
  cipher.final();
  const header = Buffer.concat([iv, cipher.getAuthTag()]);
  return pieces.map((piece) => `${V2}${farmerId}:${Buffer.concat([header, piece]).toString('base64')}`);
};

/** The farmer whose key opens the value; undefined when the value is not sealed (stored before sealing). */
export const sealedBy = (value: unknown): string | undefined => {
  if (typeof value !== 'string' || !(value.startsWith(V2) || value.startsWith(V1))) return undefined;
  const end = value.lastIndexOf(':');
  return end > V2.length ? value.slice(V2.length, end) : undefined;
};

/** Sealed alone (v1), not together with the rest of its event (v2). */
export const isSealedAlone = (sealed: string): boolean => sealed.startsWith(V1);

/** A v1 value. */
export const openValue = (sealed: string, path: string, key: KeyObject): string => {
  const farmerId = sealedBy(sealed)!;
  const bytes = Buffer.from(sealed.slice(sealed.lastIndexOf(':') + 1), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(`${farmerId}\u0000${path}`, 'utf8'));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, HEADER_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(HEADER_BYTES)), decipher.final()]).toString('utf8');
};

/** The v2 values of one event at `paths`, sealed together by `farmerId`: each one's text. Throws unless
 *  they are all the values sealed together, unchanged and in the order sealed. */
export const openValues = (
  sealed: readonly string[],
  paths: readonly string[],
  farmerId: string,
  eventType: string,
  key: KeyObject,
): string[] => {
  const pieces = sealed.map((text) => Buffer.from(text.slice(text.lastIndexOf(':') + 1), 'base64'));
  const header = pieces[0]!.subarray(0, HEADER_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, header.subarray(0, IV_BYTES));
  decipher.setAAD(
    additionalData(
      farmerId,
      eventType,
      paths,
      pieces.map((piece) => piece.length - HEADER_BYTES),
    ),
  );
  decipher.setAuthTag(header.subarray(IV_BYTES));
  const opened = pieces.map((piece) => {
    if (!header.equals(piece.subarray(0, HEADER_BYTES))) throw new Error('values sealed apart do not open together');
    return decipher.update(piece.subarray(HEADER_BYTES));
  });
  decipher.final();
  return opened.map((bytes) => bytes.toString('utf8'));
};

import { createCipheriv, createDecipheriv, type KeyObject, randomBytes } from 'node:crypto';

// One personal value sealed with its farmer's data key (AES-256-GCM): the text
// `sealed:v1:<farmer_id>:<base64 of iv ‖ tag ‖ ciphertext>` stands in the event where the value was, so
// the log's hashes cover only ciphertext, and a reader knows whose key opens it without the event's
// context. The farmer and the field's path are the additional data: a sealed value moved to another
// farmer or field does not open.

const PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const additionalData = (farmerId: string, path: readonly string[]): Buffer =>
  Buffer.from(`${farmerId}\u0000${path.join('.')}`, 'utf8');

export const sealValue = (value: string, farmerId: string, path: readonly string[], key: KeyObject): string => {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(additionalData(farmerId, path));
  const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return `${PREFIX}${farmerId}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
};

/** The farmer whose key opens the value; undefined when the value is not sealed (stored before sealing). */
export const sealedBy = (value: unknown): string | undefined => {
  if (typeof value !== 'string' || !value.startsWith(PREFIX)) return undefined;
  const end = value.lastIndexOf(':');
  return end > PREFIX.length ? value.slice(PREFIX.length, end) : undefined;
};

export const openValue = (sealed: string, path: readonly string[], key: KeyObject): string => {
  const farmerId = sealedBy(sealed)!;
  const bytes = Buffer.from(sealed.slice(sealed.lastIndexOf(':') + 1), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(additionalData(farmerId, path));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
};

import { streamName } from './aggregate';

// Shareable ids such as PF-7K3M9QXD: a prefix, seven Crockford base32 characters and one check
// character (Luhn mod 32), so a mistyped character or a swapped pair (all but 0/Z) is caught before any lookup. Crockford's
// alphabet has no I, L, O or U; on input those read as 1, 1 and 0 (U is refused), case-insensitively.

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const PAYLOAD_LENGTH = 7;
const BASE = ALPHABET.length;

export type ShareableIdPrefix = 'PF' | 'PM';

const luhnCheckCharacter = (payload: string): string => {
  let factor = 2;
  let sum = 0;
  for (let i = payload.length - 1; i >= 0; i -= 1) {
    const product = factor * ALPHABET.indexOf(payload[i]!);
    sum += Math.floor(product / BASE) + (product % BASE);
    factor = factor === 2 ? 1 : 2;
  }
  return ALPHABET[(BASE - (sum % BASE)) % BASE]!;
};

/** A new shareable id from `randomBytes` (at least 7 bytes of randomness supplied by the caller). */
export const newShareableId = (prefix: ShareableIdPrefix, randomBytes: Uint8Array): string => {
  if (randomBytes.length < PAYLOAD_LENGTH) throw new RangeError(`need ${PAYLOAD_LENGTH} random bytes`);
  let payload = '';
  for (let i = 0; i < PAYLOAD_LENGTH; i += 1) payload += ALPHABET[randomBytes[i]! % BASE];
  return `${prefix}-${payload}${luhnCheckCharacter(payload)}`;
};

/** The canonical form of a typed-in id, or undefined when it is not a well-formed id of that prefix. */
export const normalizeShareableId = (prefix: ShareableIdPrefix, input: string): string | undefined => {
  const compact = input.trim().toUpperCase().replace(/[\s-]/g, '');
  if (!compact.startsWith(prefix)) return undefined;
  const body = compact.slice(prefix.length).replace(/[IL]/g, '1').replace(/O/g, '0');
  if (body.length !== PAYLOAD_LENGTH + 1 || [...body].some((c) => !ALPHABET.includes(c))) return undefined;
  const payload = body.slice(0, PAYLOAD_LENGTH);
  return luhnCheckCharacter(payload) === body.slice(PAYLOAD_LENGTH) ? `${prefix}-${body}` : undefined;
};

/** `shareable-id-<code>`: created once for good, so a code is never handed out twice. */
export const shareableIdStream = streamName('shareable-id');

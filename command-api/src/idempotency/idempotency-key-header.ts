import { ProblemError } from '@cropcover/runtime';
import type { Request } from 'express';

/** 1–255 printable ASCII characters: enough for a UUID or any client's own scheme, nothing that could
 *  smuggle control characters into logs or queries. */
const VALID_KEY = /^[\x20-\x7E]{1,255}$/;

// The IETF draft writes the key as a structured-field string ("…"); plain tokens are what most clients
// (Stripe-style) send. Both name the same key.
const unquoted = (value: string): string =>
  value.length >= 2 && value.startsWith('"') && value.endsWith('"')
    ? value.slice(1, -1).replace(/\\(["\\])/g, '$1')
    : value;

/** The request's Idempotency-Key, undefined when it has none; 400 `invalid_idempotency_key` when malformed. */
export const idempotencyKeyOf = (req: Request): string | undefined => {
  const header = req.get('Idempotency-Key');
  if (header === undefined) return undefined;
  const key = unquoted(header);
  if (!VALID_KEY.test(key))
    throw ProblemError.badRequest(
      'invalid_idempotency_key',
      'The Idempotency-Key header must be 1–255 printable ASCII characters.',
    );
  return key;
};

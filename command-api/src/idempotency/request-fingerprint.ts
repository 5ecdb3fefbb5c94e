import { createHash } from 'node:crypto';
import type { Request } from 'express';

// The body arrives parsed, so the fingerprint hashes a canonical form of it: object keys sorted at every
// depth. Whitespace and key order then never make a retry look like another request. The recursion is
// bounded: the JSON body parser refuses bodies nested deeper than MAX_JSON_DEPTH before this runs.
const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
};

/** sha-256 (hex) of the method, path (with query) and canonical JSON body: what "the same request" means. */
export const requestFingerprint = (req: Request): string =>
  createHash('sha256')
    .update(JSON.stringify([req.method, req.originalUrl, canonical(req.body ?? null)]))
    .digest('hex');

// RFC 8785 JSON Canonicalization Scheme. Its number and string forms are ECMAScript's JSON.stringify's
// (RFC 8785 §3.2.2), so only the key order (UTF-16 code units, which is JavaScript's default sort) and the
// I-JSON limits are ours to add. Written here rather than taken from npm so the offline verifier needs no
// package that might be gone in ten years.

/** A value RFC 8785 can canonicalize: I-JSON (finite numbers, no undefined inside arrays). */
export type CanonicalValue = null | boolean | number | string | readonly CanonicalValue[] | CanonicalObject;
export interface CanonicalObject {
  readonly [key: string]: CanonicalValue | undefined;
}

export class NotCanonicalizableError extends Error {}

const serialize = (input: unknown, path: string): string => {
  // JSON.stringify's own step: a Date (or any toJSON) is serialized as what it says.
  const value =
    input !== null && typeof input === 'object' && typeof (input as { toJSON?: unknown }).toJSON === 'function'
      ? (input as { toJSON: () => unknown }).toJSON()
      : input;
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new NotCanonicalizableError(`${path}: ${value} is not I-JSON`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item, i) => serialize(item, `${path}[${i}]`)).join(',')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value as object)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${serialize((value as Record<string, unknown>)[key], `${path}.${key}`)}`).join(',')}}`;
  }
  throw new NotCanonicalizableError(`${path}: a ${typeof value} is not JSON`);
};

/** The RFC 8785 canonical text of a JSON value; `undefined` members are left out, as JSON.stringify does. */
export const canonicalJson = (value: unknown): string => serialize(value, '$');

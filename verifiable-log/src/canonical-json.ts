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

// Every append canonicalizes its event (docs/benchmarks.md, "Audit trail"): one pass of string
// concatenation, no arrays of parts, and the path of a refused value built only once one is refused.
class Refused extends Error {
  constructor(
    readonly path: string[],
    readonly reason: string,
  ) {
    super(reason);
  }
}

const refusedAt = (error: unknown, step: string): never => {
  if (error instanceof Refused) error.path.unshift(step);
  throw error;
};

const serialize = (input: unknown): string => {
  // JSON.stringify's own step: a Date (or any toJSON) is serialized as what it says.
  const value =
    input !== null && typeof input === 'object' && typeof (input as { toJSON?: unknown }).toJSON === 'function'
      ? (input as { toJSON: () => unknown }).toJSON()
      : input;
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Refused([], `${value} is not I-JSON`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ',';
      try {
        text += serialize(value[i]);
      } catch (error) {
        refusedAt(error, `[${i}]`);
      }
    }
    return `${text}]`;
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    let text = '{';
    for (const key of keys) {
      const member = record[key];
      if (member === undefined) continue;
      if (text.length > 1) text += ',';
      try {
        text += `${JSON.stringify(key)}:${serialize(member)}`;
      } catch (error) {
        refusedAt(error, `.${key}`);
      }
    }
    return `${text}}`;
  }
  throw new Refused([], `a ${typeof value} is not JSON`);
};

/** The RFC 8785 canonical text of a JSON value; `undefined` members are left out, as JSON.stringify does. */
export const canonicalJson = (value: unknown): string => {
  try {
    return serialize(value);
  } catch (error) {
    if (error instanceof Refused) throw new NotCanonicalizableError(`$${error.path.join('')}: ${error.reason}`);
    throw error;
  }
};

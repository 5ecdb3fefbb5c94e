import { createHash } from 'node:crypto';
import type { TermSheet } from '@cropcover/contracts';

// A product version is named by its sheet: `sha256:` of the sheet's RFC 8785 (JCS) canonical JSON, so two
// registrations of the same terms, however their JSON was laid out, are one version.

/** RFC 8785: object members sorted by their names' UTF-16 code units, no whitespace, numbers in their
 *  ECMAScript shortest form and strings escaped as JSON.stringify does (both are what JCS prescribes). A
 *  sheet holds only objects, arrays, strings, finite numbers and booleans. */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${members.map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`).join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError(`${value} has no JSON form`);
  return JSON.stringify(value);
};

export const sheetDigest = (sheet: TermSheet): string =>
  `sha256:${createHash('sha256').update(canonicalJson(sheet)).digest('hex')}`;

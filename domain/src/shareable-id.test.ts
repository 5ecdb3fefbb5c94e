import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newShareableId, normalizeShareableId } from './shareable-id';

describe('shareable ids', () => {
  it('have the PF-XXXXXXXX shape and validate', () => {
    const id = newShareableId('PF', randomBytes(7));
    expect(id).toMatch(/^PF-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(normalizeShareableId('PF', id)).toBe(id);
  });

  it('are looked up case-insensitively, with Crockford look-alikes and without the hyphen', () => {
    const id = newShareableId('PM', Uint8Array.from([1, 0, 2, 3, 4, 5, 6]));
    const typed = id.toLowerCase().replace('-', '').replace(/1/g, 'l').replace(/0/g, 'o');
    expect(normalizeShareableId('PM', typed)).toBe(id);
  });

  it('refuse any single-character typo and adjacent swaps (Luhn mod 32 misses only 0<->Z)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 7, maxLength: 7 }), fc.integer({ min: 3, max: 10 }), (bytes, at) => {
        const id = newShareableId('PF', bytes);
        const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
        const replacement = alphabet[(alphabet.indexOf(id[at]!) + 1) % alphabet.length]!;
        const typo = id.slice(0, at) + replacement + id.slice(at + 1);
        expect(normalizeShareableId('PF', typo)).toBeUndefined();
        const pair = `${id[at]}${id[at + 1]}`;
        if (at < 10 && id[at] !== id[at + 1] && pair !== '0Z' && pair !== 'Z0') {
          const swapped = id.slice(0, at) + id[at + 1] + id[at] + id.slice(at + 2);
          expect(normalizeShareableId('PF', swapped)).toBeUndefined();
        }
      }),
    );
  });

  it('refuse the other prefix, wrong lengths and U', () => {
    const id = newShareableId('PF', randomBytes(7));
    expect(normalizeShareableId('PM', id)).toBeUndefined();
    expect(normalizeShareableId('PF', id.slice(0, -1))).toBeUndefined();
    expect(normalizeShareableId('PF', 'PF-UUUUUUUU')).toBeUndefined();
  });
});

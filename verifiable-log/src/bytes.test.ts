import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64, uint32At, uint32Bytes } from './bytes';

// The log's texts were written and read with Node's Buffer before the verifier ran in browsers: these
// hold the Buffer-free codec to what Buffer did, so no stored proof, key or note reads differently.
describe('base64 as Buffer wrote and read it', () => {
  it('writes every byte string as Buffer does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), (bytes) => {
        expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
      }),
    );
  });

  it('reads any text, malformed or not, to the bytes Buffer read', () => {
    const letters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n.!é'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...letters), { maxLength: 60 }), (chars) => {
        const text = chars.join('');
        expect(Buffer.from(fromBase64(text)).toString('hex')).toBe(Buffer.from(text, 'base64').toString('hex'));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a key id as a big-endian number and writes it back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (id) => {
        expect(uint32At(uint32Bytes(id))).toBe(id);
        expect(Buffer.from(uint32Bytes(id)).readUInt32BE(0)).toBe(id);
      }),
    );
  });
});

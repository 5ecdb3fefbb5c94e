import { sameBytes } from '../bytes';
import { HASH_BYTES, nodeHash } from './tree-hashes';

// Proof verification, RFC 9162 §2.1.3.2 and §2.1.4.2: bit arithmetic on the sizes alone, so a verifier in
// another language can follow it line by line.

const isPowerOfTwo = (n: number): boolean => {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
};

const wellFormed = (hashes: readonly Uint8Array[]): boolean => hashes.every((hash) => hash.length === HASH_BYTES);

/** The root a leaf and its inclusion proof come to, or undefined when the proof cannot be one for index and size. */
export const rootFromInclusionProof = (
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
): Uint8Array | undefined => {
  if (index < 0 || index >= size || leaf.length !== HASH_BYTES || !wellFormed(proof)) return undefined;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : undefined;
};

export const verifyInclusion = (
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean => {
  const computed = rootFromInclusionProof(index, size, leaf, proof);
  return computed !== undefined && sameBytes(computed, root);
};

/** Whether the tree of `from` leaves with `fromRoot` is a prefix of the tree of `to` with `toRoot`. */
export const verifyConsistency = (
  from: number,
  to: number,
  fromRoot: Uint8Array,
  toRoot: Uint8Array,
  proof: readonly Uint8Array[],
): boolean => {
  if (from < 0 || from > to || !wellFormed(proof)) return false;
  if (from === to) return proof.length === 0 && sameBytes(fromRoot, toRoot);
  if (from === 0) return proof.length === 0;
  let path = [...proof];
  // When the old tree is a complete subtree, its root is the proof's implied first element.
  if (isPowerOfTwo(from)) path = [fromRoot, ...path];
  if (path.length === 0) return false;
  let fn = from - 1;
  let sn = to - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && sameBytes(fr, fromRoot) && sameBytes(sr, toRoot);
};

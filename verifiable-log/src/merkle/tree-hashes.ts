import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes } from '../bytes';

// RFC 6962 §2.1 (RFC 9162 §2.1.1): SHA-256, leaves and interior nodes domain-separated by a first byte, so
// no leaf can pass for a node.
const LEAF_PREFIX = Uint8Array.of(0x00);
const NODE_PREFIX = Uint8Array.of(0x01);

export const HASH_BYTES = 32;

/** MTH of the empty tree: SHA-256 of nothing. */
export const EMPTY_ROOT: Uint8Array = sha256(new Uint8Array());

export const leafHash = (leafInput: Uint8Array): Uint8Array => sha256(concatBytes(LEAF_PREFIX, leafInput));

export const nodeHash = (left: Uint8Array, right: Uint8Array): Uint8Array =>
  sha256(concatBytes(NODE_PREFIX, left, right));

/** The largest power of two strictly below n (n ≥ 2): where RFC 6962 splits a tree of n leaves. */
export const splitPoint = (n: number): number => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};

/** A complete subtree: 2^level leaves starting at leaf index × 2^level. Level 0 is a leaf hash. */
export interface SubtreeId {
  readonly level: number;
  readonly index: number;
}

/** Leaves [start, end) as RFC 6962 splits them: every range a proof or a root names is a run of complete
 *  subtrees, largest first, because its start is aligned to the largest power of two that fits it. */
export const subtreesOf = (start: number, end: number): SubtreeId[] => {
  const subtrees: SubtreeId[] = [];
  let at = start;
  while (at < end) {
    let size = 1;
    while (at % (size * 2) === 0 && at + size * 2 <= end) size *= 2;
    subtrees.push({ level: Math.log2(size), index: at / size });
    at += size;
  }
  return subtrees;
};

/** MTH of leaves [start, end) from the hashes of its complete subtrees (as `subtreesOf` lists them). */
export const rangeHash = (subtreeHashes: readonly Uint8Array[]): Uint8Array => {
  if (subtreeHashes.length === 0) return EMPTY_ROOT;
  // The rightmost subtrees are the smallest: RFC 6962's recursion folds them from the right.
  let hash = subtreeHashes[subtreeHashes.length - 1]!;
  for (let i = subtreeHashes.length - 2; i >= 0; i--) hash = nodeHash(subtreeHashes[i]!, hash);
  return hash;
};

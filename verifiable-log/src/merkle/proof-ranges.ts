import { splitPoint } from './tree-hashes';

// Which subtree hashes make up a proof, as leaf ranges [start, end): RFC 9162 §2.1.3.1 (PATH) and §2.1.4.1
// (PROOF, SUBPROOF), followed over ranges rather than copied lists, so a store can answer a proof from the
// complete subtrees it keeps (`subtreesOf`).

export interface LeafRange {
  readonly start: number;
  readonly end: number;
}

const checkSize = (name: string, value: number): void => {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} ${value} is not a tree size`);
};

/** The ranges whose hashes prove leaf `index` is in the tree of `size` leaves, bottom up. */
export const inclusionProofRanges = (index: number, size: number): LeafRange[] => {
  checkSize('size', size);
  checkSize('index', index);
  if (index >= size) throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
  const path: LeafRange[] = [];
  let start = 0;
  let end = size;
  let m = index;
  while (end - start > 1) {
    const k = splitPoint(end - start);
    if (m < k) {
      path.push({ start: start + k, end });
      end = start + k;
    } else {
      path.push({ start, end: start + k });
      start += k;
      m -= k;
    }
  }
  return path.reverse();
};

/** The ranges whose hashes prove the tree of `from` leaves is a prefix of the tree of `to`, bottom up. */
export const consistencyProofRanges = (from: number, to: number): LeafRange[] => {
  checkSize('from', from);
  checkSize('to', to);
  if (from > to) throw new RangeError(`a tree of ${to} cannot extend one of ${from}`);
  if (from === 0 || from === to) return [];
  const proof: LeafRange[] = [];
  let start = 0;
  let end = to;
  let m = from;
  let whole = true; // SUBPROOF's b: the old tree is still the subtree's own left part
  while (m !== end - start) {
    const k = splitPoint(end - start);
    if (m <= k) {
      proof.push({ start: start + k, end });
      end = start + k;
    } else {
      proof.push({ start, end: start + k });
      start += k;
      m -= k;
      whole = false;
    }
  }
  if (!whole) proof.push({ start, end });
  return proof.reverse();
};

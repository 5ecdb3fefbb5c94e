import { consistencyProofRanges, inclusionProofRanges, type LeafRange } from './proof-ranges';
import { TreeFrontier } from './tree-frontier';
import { rangeHash, subtreesOf } from './tree-hashes';

/** A whole tree in memory: the offline verifier's full rebuild, and the reference the tests hold a store to. */
export class MemoryTree {
  private readonly frontier = new TreeFrontier();
  private readonly subtrees = new Map<string, Uint8Array>();

  constructor(leaves: Iterable<Uint8Array> = []) {
    for (const leaf of leaves) this.append(leaf);
  }

  get size(): number {
    return this.frontier.size;
  }

  append(leaf: Uint8Array): void {
    for (const subtree of this.frontier.append(leaf))
      this.subtrees.set(`${subtree.level}/${subtree.index}`, subtree.hash);
  }

  /** MTH of the first `size` leaves (every size this tree has had). */
  root(size = this.size): Uint8Array {
    return this.hashOf({ start: 0, end: this.checked(size) });
  }

  inclusionProof(index: number, size = this.size): Uint8Array[] {
    return inclusionProofRanges(index, this.checked(size)).map((range) => this.hashOf(range));
  }

  consistencyProof(from: number, to = this.size): Uint8Array[] {
    return consistencyProofRanges(from, this.checked(to)).map((range) => this.hashOf(range));
  }

  private checked(size: number): number {
    if (size > this.size) throw new RangeError(`the tree has ${this.size} leaves, not ${size}`);
    return size;
  }

  private hashOf({ start, end }: LeafRange): Uint8Array {
    return rangeHash(subtreesOf(start, end).map(({ level, index }) => this.subtrees.get(`${level}/${index}`)!));
  }
}

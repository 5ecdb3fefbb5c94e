import { EMPTY_ROOT, nodeHash, type SubtreeId } from './tree-hashes';

/** A complete subtree and its hash. */
export interface Subtree extends SubtreeId {
  readonly hash: Uint8Array;
}

// The right edge of a growing tree: one complete subtree per set bit of its size, largest first (a
// "compact range"). Enough to append leaves and tell the root, whatever the size of the tree.
export class TreeFrontier {
  private readonly edge: Subtree[];
  private leaves: number;

  /** `edge`: the complete subtrees of a tree of `size` leaves, as `subtreesOf(0, size)` names them. */
  constructor(size = 0, edge: readonly Subtree[] = []) {
    this.leaves = size;
    this.edge = [...edge];
  }

  get size(): number {
    return this.leaves;
  }

  /** Adds a leaf hash; answers the complete subtrees it finished (the leaf itself first), to keep. */
  append(leaf: Uint8Array): Subtree[] {
    let node: Subtree = { level: 0, index: this.leaves, hash: leaf };
    const finished = [node];
    while (this.edge.length > 0 && this.edge[this.edge.length - 1]!.level === node.level) {
      const left = this.edge.pop()!;
      node = { level: node.level + 1, index: left.index / 2, hash: nodeHash(left.hash, node.hash) };
      finished.push(node);
    }
    this.edge.push(node);
    this.leaves += 1;
    return finished;
  }

  root(): Uint8Array {
    if (this.edge.length === 0) return EMPTY_ROOT;
    let hash = this.edge[this.edge.length - 1]!.hash;
    for (let i = this.edge.length - 2; i >= 0; i--) hash = nodeHash(this.edge[i]!.hash, hash);
    return hash;
  }
}

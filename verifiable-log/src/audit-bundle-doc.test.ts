import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAILURE_EXIT_CODES } from './bundle/audit-bundle';
import { eventLeafHash, leafEnvelopeOf, leafInputOf } from './event-leaf/event-leaf';
import { MemoryTree } from './merkle/memory-tree';
import { leafHash } from './merkle/tree-hashes';
import { verifyConsistency, verifyInclusion } from './merkle/verify-proofs';
import { checkpointText } from './signed-note/checkpoint';

// docs/audit-bundle.md is what a verifier in another language is written from: its vectors must be what
// this code computes, and its table of exit codes the verifier's.

const doc = readFileSync(new URL('../../docs/audit-bundle.md', import.meta.url), 'utf8');
const vectors = JSON.parse(/```json audit-test-vectors\n([\s\S]*?)\n```/.exec(doc)![1]!);
const hex = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const base64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

describe('the vectors of docs/audit-bundle.md', () => {
  const { merkle } = vectors;
  const tree = new MemoryTree(merkle.leaf_inputs_hex.map((input: string) => leafHash(hex(input))));

  it('give the transparency-dev/merkle roots of every size', () => {
    expect(merkle.roots_hex_by_size.map((_: string, size: number) => toHex(tree.root(size)))).toEqual(
      merkle.roots_hex_by_size,
    );
  });

  it('give its inclusion and consistency proofs, which verify', () => {
    expect(merkle.inclusion.length).toBeGreaterThan(0);
    for (const { leaf_index, tree_size, proof_hex } of merkle.inclusion) {
      expect(tree.inclusionProof(leaf_index, tree_size).map(toHex)).toEqual(proof_hex);
      const leaf = leafHash(hex(merkle.leaf_inputs_hex[leaf_index]));
      const root = hex(merkle.roots_hex_by_size[tree_size]);
      expect(verifyInclusion(leaf_index, tree_size, leaf, proof_hex.map(hex), root)).toBe(true);
    }
    expect(merkle.consistency.length).toBeGreaterThan(0);
    for (const { from_size, to_size, proof_hex } of merkle.consistency) {
      expect(tree.consistencyProof(from_size, to_size).map(toHex)).toEqual(proof_hex);
      const [from, to] = [hex(merkle.roots_hex_by_size[from_size]), hex(merkle.roots_hex_by_size[to_size])];
      expect(verifyConsistency(from_size, to_size, from, to, proof_hex.map(hex))).toBe(true);
    }
  });

  it('give the leaf input and leaf hash of each event, chained by prev, and the root of the two', () => {
    const hashes = vectors.leaves.map((leaf: any) => {
      const event = {
        stream: leaf.stream,
        revision: leaf.rev,
        eventId: leaf.eventId,
        type: leaf.type,
        data: leaf.data,
        metadata: leaf.metadata,
        prev: base64(leaf.prev),
      };
      expect(Buffer.from(leafInputOf(leafEnvelopeOf(event))).toString('utf8')).toBe(leaf.leaf_input);
      expect(toHex(eventLeafHash(event))).toBe(leaf.leaf_hash_hex);
      return eventLeafHash(event);
    });
    expect(Buffer.from(hashes[0]).toString('base64')).toBe(vectors.leaves[1].prev);
    expect(Buffer.from(new MemoryTree(hashes).root()).toString('base64')).toBe(vectors.two_leaf_root);
    const { origin, size, root, text } = vectors.checkpoint_text;
    expect(checkpointText({ origin, size, root: base64(root) })).toBe(text);
  });

  it('list the exit code of every failure', () => {
    for (const [failure, code] of Object.entries(FAILURE_EXIT_CODES))
      expect(doc).toMatch(new RegExp(`\`${failure}\`\\s*\\|\\s*${code}\\s*\\|`));
  });
});

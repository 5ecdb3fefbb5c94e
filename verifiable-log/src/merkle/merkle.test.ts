import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryTree } from './memory-tree';
import { EMPTY_ROOT, leafHash } from './tree-hashes';
import { rootFromInclusionProof, verifyConsistency, verifyInclusion } from './verify-proofs';

// The interop vectors of transparency-dev/merkle (testonly/constants.go, proof/verify_test.go): leaf
// inputs, the roots of every size 0…8, and its inclusion and consistency proofs (leaves there are 1-based).
const hex = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

const LEAF_INPUTS = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
];
const ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const INCLUSION = [
  {
    leaf: 1,
    size: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    leaf: 6,
    size: 8,
    proof: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { leaf: 3, size: 3, proof: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    leaf: 2,
    size: 5,
    proof: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
  { leaf: 1, size: 1, proof: [] },
];
const CONSISTENCY = [
  { from: 1, to: 1, proof: [] },
  {
    from: 1,
    to: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    from: 6,
    to: 8,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  {
    from: 2,
    to: 5,
    proof: [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
  {
    from: 6,
    to: 7,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
];

const vectorTree = () => new MemoryTree(LEAF_INPUTS.map((input) => leafHash(hex(input))));

describe('the RFC 6962 tree, against the transparency-dev/merkle vectors', () => {
  it('has the root of every size 0…8', () => {
    const tree = vectorTree();
    expect(ROOTS.map((_, size) => toHex(tree.root(size)))).toEqual(ROOTS);
    expect(toHex(EMPTY_ROOT)).toBe(ROOTS[0]);
  });

  it('makes and verifies their inclusion proofs', () => {
    const tree = vectorTree();
    for (const { leaf, size, proof } of INCLUSION) {
      expect(tree.inclusionProof(leaf - 1, size).map(toHex)).toEqual(proof);
      const leafHashOf = leafHash(hex(LEAF_INPUTS[leaf - 1]!));
      expect(verifyInclusion(leaf - 1, size, leafHashOf, proof.map(hex), hex(ROOTS[size]!))).toBe(true);
    }
  });

  it('makes and verifies their consistency proofs', () => {
    const tree = vectorTree();
    for (const { from, to, proof } of CONSISTENCY) {
      expect(tree.consistencyProof(from, to).map(toHex)).toEqual(proof);
      expect(verifyConsistency(from, to, hex(ROOTS[from]!), hex(ROOTS[to]!), proof.map(hex))).toBe(true);
    }
  });

  it('refuses their proofs corrupted as transparency-dev/merkle corrupts them', () => {
    const { leaf, size, proof } = INCLUSION[1]!;
    const hashes = proof.map(hex);
    const root = hex(ROOTS[size]!);
    const leafHashOf = leafHash(hex(LEAF_INPUTS[leaf - 1]!));
    const flipped = (i: number) => hashes.map((h, k) => (k === i ? h.map((b, j) => (j === 0 ? b ^ 8 : b)) : h));
    expect(verifyInclusion(leaf - 2, size, leafHashOf, hashes, root)).toBe(false);
    expect(verifyInclusion(leaf, size, leafHashOf, hashes, root)).toBe(false);
    expect(verifyInclusion(leaf - 1, size * 2, leafHashOf, hashes, root)).toBe(false);
    expect(verifyInclusion(leaf - 1, size / 2, leafHashOf, hashes, root)).toBe(false);
    expect(verifyInclusion(leaf - 1, size, leafHashOf, [...hashes, root], root)).toBe(false);
    expect(verifyInclusion(leaf - 1, size, leafHashOf, [root, ...hashes], root)).toBe(false);
    expect(verifyInclusion(leaf - 1, size, leafHashOf, hashes.slice(0, -1), root)).toBe(false);
    for (let i = 0; i < hashes.length; i++)
      expect(verifyInclusion(leaf - 1, size, leafHashOf, flipped(i), root)).toBe(false);

    const c = CONSISTENCY[2]!;
    const cHashes = c.proof.map(hex);
    const [r1, r2] = [hex(ROOTS[c.from]!), hex(ROOTS[c.to]!)];
    expect(verifyConsistency(c.from, c.to, r2, r1, cHashes)).toBe(false);
    expect(verifyConsistency(c.from - 1, c.to, r1, r2, cHashes)).toBe(false);
    expect(verifyConsistency(c.from, c.to, r1, r2, [])).toBe(false);
    expect(verifyConsistency(c.from, c.to, r1, r2, cHashes.slice(0, -1))).toBe(false);
    expect(verifyConsistency(c.from, c.to, r1, r2, [...cHashes, r2])).toBe(false);
  });

  it('answers the empty and one-leaf cases as RFC 9162 does', () => {
    expect(rootFromInclusionProof(0, 0, EMPTY_ROOT, [])).toBeUndefined();
    expect(verifyConsistency(0, 5, EMPTY_ROOT, hex(ROOTS[5]!), [])).toBe(true);
    expect(verifyConsistency(3, 3, hex(ROOTS[3]!), hex(ROOTS[3]!), [EMPTY_ROOT])).toBe(false);
  });
});

const leaves = fc.array(fc.uint8Array({ minLength: 0, maxLength: 8 }), { minLength: 1, maxLength: 70 });

describe('every proof of any tree', () => {
  it('verifies an inclusion proof of every leaf at every size, and fails for a changed leaf', () => {
    fc.assert(
      fc.property(leaves, fc.nat(), fc.nat(), (inputs, a, b) => {
        const hashes = inputs.map(leafHash);
        const tree = new MemoryTree(hashes);
        const size = 1 + (a % hashes.length);
        const index = b % size;
        const proof = tree.inclusionProof(index, size);
        expect(verifyInclusion(index, size, hashes[index]!, proof, tree.root(size))).toBe(true);
        const changed = leafHash(new Uint8Array([...inputs[index]!, 1]));
        expect(verifyInclusion(index, size, changed, proof, tree.root(size))).toBe(false);
      }),
    );
  });

  it('verifies a consistency proof between any two sizes, and fails when an old leaf changed', () => {
    fc.assert(
      fc.property(leaves, fc.nat(), fc.nat(), fc.nat(), (inputs, a, b, c) => {
        const hashes = inputs.map(leafHash);
        const tree = new MemoryTree(hashes);
        const to = 1 + (a % hashes.length);
        const from = 1 + (b % to);
        const proof = tree.consistencyProof(from, to);
        expect(verifyConsistency(from, to, tree.root(from), tree.root(to), proof)).toBe(true);
        const forged = [...hashes];
        const at = c % from;
        forged[at] = leafHash(new Uint8Array([...inputs[at]!, 1]));
        const forgedTree = new MemoryTree(forged);
        if (from < to)
          expect(
            verifyConsistency(from, to, tree.root(from), forgedTree.root(to), forgedTree.consistencyProof(from, to)),
          ).toBe(false);
      }),
    );
  });
});

import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  eventLeafHash,
  GENESIS_PREV,
  generateSignerKey,
  MemoryTree,
  type nodeHash,
  openCheckpoint,
  parseSignerKey,
  rootFromInclusionProof,
  signCheckpoint,
  verifyInclusion,
} from '../src/index';

// What the verifier costs in Node, beside an anchor in the same process: the same RFC 6962 fold hashed with
// node:crypto directly (the library's hashing before it ran in browsers too). docs/benchmarks.md,
// "The verifier on one set of primitives". Run: `npx tsx verifiable-log/bench/proof-verification.ts`.

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PROOFS = Number(process.env.BENCH_PROOFS ?? 20_000);
const TREE = 100_000; // 17 hashes per proof, as in a default audit bundle

const anchorNodeHash = (left: Uint8Array, right: Uint8Array): Uint8Array =>
  createHash('sha256').update(Uint8Array.of(1)).update(left).update(right).digest();

/** The inclusion fold of verify-proofs.ts with a given node hash. */
const fold = (hash: typeof nodeHash, index: number, size: number, leaf: Uint8Array, proof: readonly Uint8Array[]) => {
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (fn % 2 === 1 || fn === sn) {
      r = hash(p, r);
      if (fn % 2 === 0)
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
    } else r = hash(r, p);
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return r;
};

const tree = new MemoryTree();
const leaves: Uint8Array[] = [];
for (let i = 0; i < TREE; i++) {
  const leaf = eventLeafHash({
    stream: `policy-${i % 1000}`,
    revision: i,
    eventId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    type: 'TriggerEvaluated',
    data: `{"policy_id":"p-${i}","rain_mm":${i % 200}}`,
    metadata: '{"actor":"system"}',
    prev: GENESIS_PREV,
  });
  leaves.push(leaf);
  tree.append(leaf);
}
const root = tree.root();
const cases = Array.from({ length: PROOFS }, (_, k) => {
  const index = (k * 7919) % TREE;
  return { index, leaf: leaves[index]!, proof: tree.inclusionProof(index) };
});

const time = (run: () => void): number => {
  const start = performance.now();
  run();
  return performance.now() - start;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const library: number[] = [];
const anchor: number[] = [];
const leafHashing: number[] = [];
const checkpoints: number[] = [];
const signer = parseSignerKey(generateSignerKey('bench.example'));
const note = signCheckpoint({ origin: 'bench.example', size: TREE, root }, [signer]).note;
for (let round = 0; round < ROUNDS; round++) {
  anchor.push(
    time(() => {
      for (const { index, leaf, proof } of cases)
        if (fold(anchorNodeHash, index, TREE, leaf, proof).length !== 32) throw new Error('anchor');
    }),
  );
  library.push(
    time(() => {
      for (const { index, leaf, proof } of cases)
        if (!verifyInclusion(index, TREE, leaf, proof, root)) throw new Error('a proof failed');
    }),
  );
  leafHashing.push(
    time(() => {
      for (let i = 0; i < PROOFS; i++)
        eventLeafHash({
          stream: 'policy-1',
          revision: i,
          eventId: '00000000-0000-4000-8000-000000000001',
          type: 'TriggerEvaluated',
          data: `{"policy_id":"p-1","rain_mm":${i}}`,
          metadata: '{"actor":"system"}',
          prev: GENESIS_PREV,
        });
    }),
  );
  checkpoints.push(
    time(() => {
      for (let i = 0; i < 200; i++) openCheckpoint(note, [signer.verifier]);
    }),
  );
}
if (rootFromInclusionProof(0, TREE, leaves[0]!, cases[0]!.proof) === undefined) throw new Error('unreachable');
const perProof = (ms: number) => ((ms * 1000) / PROOFS).toFixed(2);
console.log(`${PROOFS} inclusion proofs of a ${TREE}-leaf tree (${cases[0]!.proof.length} hashes), ${ROUNDS} rounds`);
console.log(`anchor (node:crypto fold): median ${perProof(median(anchor))} µs/proof`);
console.log(`verifyInclusion (library): median ${perProof(median(library))} µs/proof`);
console.log(`ratio library ÷ anchor: ${(median(library) / median(anchor)).toFixed(2)}×`);
console.log(`eventLeafHash: median ${perProof(median(leafHashing))} µs/leaf`);
console.log(`openCheckpoint (one Ed25519 signature): median ${((median(checkpoints) * 1000) / 200).toFixed(1)} µs`);

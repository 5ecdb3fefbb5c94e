import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { leafHash, rootFromInclusionProof } from './log-proof';
import { openCheckpoint, parseVerifierKey } from './signed-checkpoint';

// The browser's checks with WebCrypto, against the transparency-dev/merkle vectors the service's own
// verifier is tested on (verifiable-log's merkle.test.ts) and a note signed as the integrator signs one.
const hex = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));
const toHex = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString('hex') : undefined);

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
const ROOT_OF_8 = '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328';
const ROOT_OF_5 = '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4';
const INCLUSION = [
  {
    index: 0,
    size: 8,
    root: ROOT_OF_8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    index: 5,
    size: 8,
    root: ROOT_OF_8,
    proof: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  {
    index: 1,
    size: 5,
    root: ROOT_OF_5,
    proof: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];

describe('an inclusion proof checked with WebCrypto', () => {
  it.each(INCLUSION)('folds leaf $index of $size to the vectors’ root', async ({ index, size, root, proof }) => {
    const leaf = await leafHash(hex(LEAF_INPUTS[index]!));
    expect(toHex(await rootFromInclusionProof(index, size, leaf, proof.map(hex)))).toBe(root);
  });

  it('comes to another root when a leaf byte or a proof hash is changed, and to none for a wrong size', async () => {
    const { index, size, root, proof } = INCLUSION[1]!;
    const leaf = await leafHash(hex('5051525354555658'));
    expect(toHex(await rootFromInclusionProof(index, size, leaf, proof.map(hex)))).not.toBe(root);
    const good = await leafHash(hex(LEAF_INPUTS[index]!));
    const bent = proof.map(hex);
    bent[1]![0]! ^= 1;
    expect(toHex(await rootFromInclusionProof(index, size, good, bent))).not.toBe(root);
    expect(await rootFromInclusionProof(index, 4, good, proof.map(hex))).toBeUndefined();
  });
});

describe('a signed checkpoint checked with WebCrypto Ed25519', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = (publicKey.export({ format: 'der', type: 'spki' }) as Buffer).subarray(12);
  const keyIdOf = (name: string) =>
    createHash('sha256').update(`${name}\n`).update(Uint8Array.of(1)).update(raw).digest().readUInt32BE(0);
  const vkey = (name: string) =>
    `${name}+${keyIdOf(name).toString(16).padStart(8, '0')}+${Buffer.concat([Uint8Array.of(1), raw]).toString('base64')}`;
  const noteOf = (text: string, name = 'log.example') => {
    const id = Buffer.alloc(4);
    id.writeUInt32BE(keyIdOf(name));
    const signature = sign(null, Buffer.from(text), privateKey);
    return `${text}\n\u2014 ${name} ${Buffer.concat([id, signature]).toString('base64')}\n`;
  };
  const root = Buffer.from(ROOT_OF_8, 'hex').toString('base64');

  it('reads a checkpoint its published key signed', async () => {
    const key = await parseVerifierKey(vkey('log.example'));
    const opened = await openCheckpoint(noteOf(`log.example\n8\n${root}\n`), [key]);
    expect(opened).toMatchObject({ origin: 'log.example', size: 8, signedBy: { name: 'log.example' } });
    expect(toHex(opened.root)).toBe(ROOT_OF_8);
  });

  it('refuses a note whose text was changed after signing, one no known key signed, and a key of another id', async () => {
    const key = await parseVerifierKey(vkey('log.example'));
    const forged = noteOf(`log.example\n8\n${root}\n`).replace('\n8\n', '\n9\n');
    await expect(openCheckpoint(forged, [key])).rejects.toThrow('does not verify');
    await expect(openCheckpoint(noteOf(`other\n8\n${root}\n`, 'other'), [key])).rejects.toThrow('no published key');
    await expect(parseVerifierKey(vkey('log.example').replace(/\+[0-9a-f]{8}\+/, '+00000000+'))).rejects.toThrow(
      'does not match',
    );
  });
});

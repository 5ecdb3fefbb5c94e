import { createPrivateKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkpointText, openCheckpoint, signCheckpoint } from './checkpoint';
import { generateSignerKey, NoteKeyError, parseSignerKey, parseVerifierKey } from './note-keys';
import { NoteError, openNote } from './signed-note';

const ORIGIN = 'cropcover.example/audit/v1';
const root = new Uint8Array(32).fill(7);

describe('signed checkpoints', () => {
  it('writes the C2SP checkpoint body and a signed note that its verifier key opens', () => {
    const signer = parseSignerKey(generateSignerKey(ORIGIN));
    const signed = signCheckpoint({ origin: ORIGIN, size: 12, root }, [signer]);
    expect(checkpointText(signed)).toBe(`${ORIGIN}\n12\n${Buffer.from(root).toString('base64')}\n`);
    expect(signed.note).toMatch(new RegExp(`^${checkpointText(signed)}\n\u2014 ${ORIGIN} [A-Za-z0-9+/]+=*\n$`));
    const opened = openCheckpoint(signed.note, [parseVerifierKey(signer.verifier.vkey)]);
    expect([opened.origin, opened.size, Buffer.from(opened.root)]).toEqual([ORIGIN, 12, Buffer.from(root)]);
  });

  it('computes the key id as C2SP signed-note does (a known key)', () => {
    // The Go sumdb/note example key: name PeterNeumann, key id c74f20a3.
    const vkey = parseVerifierKey('PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW');
    expect(vkey.keyId.toString(16)).toBe('c74f20a3');
    expect(() => parseVerifierKey('PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW')).toThrow(
      NoteKeyError,
    );
  });

  it('accepts any key of a rotated set, and refuses a note signed by another key or edited', () => {
    const old = parseSignerKey(generateSignerKey(ORIGIN));
    const current = parseSignerKey(generateSignerKey(ORIGIN));
    const keys = [old.verifier, current.verifier];
    expect(openCheckpoint(signCheckpoint({ origin: ORIGIN, size: 1, root }, [old]).note, keys).size).toBe(1);
    expect(openCheckpoint(signCheckpoint({ origin: ORIGIN, size: 2, root }, [current]).note, keys).size).toBe(2);
    const stranger = parseSignerKey(generateSignerKey(ORIGIN));
    expect(() => openCheckpoint(signCheckpoint({ origin: ORIGIN, size: 3, root }, [stranger]).note, keys)).toThrow(
      NoteError,
    );
    const edited = signCheckpoint({ origin: ORIGIN, size: 4, root }, [current]).note.replace('\n4\n', '\n5\n');
    expect(() => openCheckpoint(edited, keys)).toThrow('does not verify');
  });

  it('signs as node:crypto signed with the same key, and opens the Go sumdb/note example', () => {
    // Keys generated and notes signed before the library's Ed25519 was @noble's still open and match.
    const signer = parseSignerKey(generateSignerKey(ORIGIN));
    const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), signer.privateKey]);
    const text = checkpointText({ origin: ORIGIN, size: 9, root });
    const byNode = sign(null, Buffer.from(text), createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }));
    const note = signCheckpoint({ origin: ORIGIN, size: 9, root }, [signer]).note;
    expect(Buffer.from(note.split(' ').at(-1)!, 'base64').subarray(4).toString('hex')).toBe(byNode.toString('hex'));
    const example =
      "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n\n" +
      '\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';
    const peter = parseVerifierKey('PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW');
    expect(openNote(example, [peter]).verifiedBy).toEqual([peter]);
  });
});

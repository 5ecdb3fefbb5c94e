import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventLeafHash, GENESIS_PREV, leafEnvelopeOf, leafInputOf } from './event-leaf';

describe('the event leaf', () => {
  const event = {
    stream: 'policy-7f1c',
    revision: 0,
    eventId: '00000000-0000-4000-8000-000000000001',
    type: 'PolicyIssued',
    data: '{"premium":"12.50"}',
    metadata: '{"actor":"u1"}',
    prev: GENESIS_PREV,
  };

  it('is SHA-256(0x00 ‖ the canonical envelope) over the stored texts', () => {
    const input = Buffer.from(leafInputOf(leafEnvelopeOf(event))).toString('utf8');
    const sha = (text: string) => createHash('sha256').update(text).digest('base64');
    expect(input).toBe(
      `{"dataHash":"${sha(event.data)}","eventId":"${event.eventId}","metaHash":"${sha(event.metadata)}",` +
        `"prev":"${Buffer.alloc(32).toString('base64')}","rev":0,"stream":"policy-7f1c","type":"PolicyIssued","v":1}`,
    );
    const expected = createHash('sha256').update(Uint8Array.of(0)).update(input).digest();
    expect(Buffer.from(eventLeafHash(event))).toEqual(expected);
  });

  it('changes with any byte of the stored data, the metadata or the previous leaf', () => {
    const leaf = Buffer.from(eventLeafHash(event)).toString('hex');
    for (const changed of [
      { ...event, data: '{"premium":"12.51"}' },
      { ...event, metadata: '{"actor":"u2"}' },
      { ...event, prev: new Uint8Array(32).fill(1) },
      { ...event, revision: 1 },
    ])
      expect(Buffer.from(eventLeafHash(changed)).toString('hex')).not.toBe(leaf);
  });
});

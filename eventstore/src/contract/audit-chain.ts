import { canonicalJson, eventLeafHash, GENESIS_PREV } from '@cropcover/verifiable-log';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventStore, NewEvent } from '../port';
import { type ContractBackend, type ContractSubject, uniquePrefix } from './contract-subject';
import { testEvent } from './test-event';

// The audit chain (SPEC §7 Audit): every append, however it is made, links each event to its stream's
// previous one and stores the texts its leaf hashes.

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** The stream's audit chain: revisions 0…n, each `prev` the previous revision's leaf (zeros at 0), each
 *  leaf recomputed from the stored texts, and those texts the RFC 8785 form of what was appended. */
const expectChained = async (backend: ContractBackend, stream: string, appended: readonly NewEvent[]) => {
  const stored = await backend.readStored(stream);
  expect(stored.map((event) => event.revision)).toEqual([...appended.keys()]);
  let prev: Uint8Array = GENESIS_PREV;
  for (const [i, event] of stored.entries()) {
    expect({ revision: i, prev: hex(event.prev), leaf: hex(eventLeafHash(event)) }).toEqual({
      revision: i,
      prev: hex(prev),
      leaf: hex(event.leafHash),
    });
    expect([event.eventId, event.type, event.data, event.metadata]).toEqual([
      appended[i]!.metadata.event_id,
      appended[i]!.type,
      canonicalJson(appended[i]!.data as never),
      canonicalJson(appended[i]!.metadata as never),
    ]);
    prev = event.leafHash;
  }
};

export const describeAuditChain = (subject: ContractSubject): void => {
  describe('audit chain', () => {
    let store: EventStore;
    let backend: ContractBackend;
    beforeAll(() => {
      store = subject.store();
      backend = subject.backend();
    });

    it("chains each event to its stream's previous one, over single, following and multi-stream appends", async () => {
      const stream = `${uniquePrefix('policy')}chain`;
      const other = `${uniquePrefix('programme')}chain`;
      const first = [
        testEvent('PolicyIssued', { z: 1, a: 'Dürre "trocken"', amount: '12.50', nested: { y: [1, 2.5], b: null } }),
        testEvent('TriggerEvaluated', { '10': 'ten', '2': 'two', é: true }),
      ];
      const next = [testEvent('TriggerBreached', { index: 0.1 })];
      const together = [testEvent('PayoutApproved', { amount_minor: 500 }), testEvent('PayoutSettled', {})];
      const alongside = [testEvent('ExposureReserved', { policy_id: 'p' })];
      await store.append(stream, first, 'no_stream');
      await store.append(stream, next, 1);
      await store.appendToStreams([
        { streamId: stream, events: together, expected: 2 },
        { streamId: other, events: alongside, expected: 'no_stream' },
      ]);
      await expectChained(backend, stream, [...first, ...next, ...together]);
      await expectChained(backend, other, alongside);
    });

    it('chains appends that race on one stream with any', async () => {
      const stream = `${uniquePrefix('policy')}race`;
      const events = Array.from({ length: 16 }, (_, i) => testEvent('TriggerEvaluated', { i }));
      await Promise.all(events.map((event) => store.append(stream, [event], 'any')));
      const order = (await store.readStream(stream)).map((event) => event.metadata.event_id);
      await expectChained(
        backend,
        stream,
        order.map((id) => events.find((event) => event.metadata.event_id === id)!),
      );
    });
  });
};

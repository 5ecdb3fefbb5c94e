import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type EventStore, type ExpectedRevision, WrongExpectedRevisionError } from '../port';
import { type ContractSubject, uniquePrefix } from './contract-subject';
import { collectEvents } from './event-collector';
import { DELIVERY_TIMEOUT, delay, expectStrictlyIncreasing, QUIET_MS } from './log-checks';
import { testEvent } from './test-event';

// Appends: expected revisions, races for one revision, several streams at once, and the positions
// they are given.

const expectConflict = async (
  attempt: Promise<unknown>,
  streamId: string,
  expected: ExpectedRevision,
  actual: number | 'no_stream',
): Promise<void> => {
  const error = await attempt.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  expect(error).toMatchObject({ streamId, expected, actual });
};

export const describeAppends = (subject: ContractSubject): void => {
  describe('appends', () => {
    let store: EventStore;
    beforeAll(() => {
      store = subject.store();
    });

    it('reads back an appended stream with its data and metadata intact', async () => {
      const stream = `${uniquePrefix('farm')}1`;
      const events = [
        testEvent('FarmRegistered', { name: 'North', hectares: 12.5, tags: ['maize', 'soy'], owner: null }),
        testEvent('FieldAdded', { fieldId: 'f-1', polygon: [[1.5, 2.25]] }),
      ];
      const result = await store.append(stream, events, 'no_stream');
      expect(result.nextExpectedRevision).toBe(1);

      const read = await store.readStream(stream);
      expect(
        read.map(({ streamId, revision, type, data, metadata }) => ({ streamId, revision, type, data, metadata })),
      ).toEqual([
        { streamId: stream, revision: 0, ...events[0] },
        { streamId: stream, revision: 1, ...events[1] },
      ]);
      expect(read[1]?.position).toEqual(result.position);
      expectStrictlyIncreasing(read.map((event) => event.position));

      expect((await store.readStream(stream, { fromRevision: 1 })).map((event) => event.type)).toEqual(['FieldAdded']);
      expect((await store.readStream(stream, { limit: 1 })).map((event) => event.type)).toEqual(['FarmRegistered']);
      expect(await store.readStream(`${stream}-missing`)).toEqual([]);
    });

    it('enforces no_stream, an exact revision and any, and reports the actual revision on a mismatch', async () => {
      const stream = `${uniquePrefix('policy')}1`;
      expect((await store.append(stream, [testEvent('PolicyIssued', {})], 'no_stream')).nextExpectedRevision).toBe(0);
      await expectConflict(store.append(stream, [testEvent('PolicyIssued', {})], 'no_stream'), stream, 'no_stream', 0);
      expect((await store.append(stream, [testEvent('TriggerEvaluated', {})], 0)).nextExpectedRevision).toBe(1);
      await expectConflict(store.append(stream, [testEvent('TriggerEvaluated', {})], 0), stream, 0, 1);
      await expectConflict(store.append(stream, [testEvent('TriggerEvaluated', {})], 5), stream, 5, 1);
      const twoMore = [testEvent('TriggerBreached', {}), testEvent('PayoutApproved', {})];
      expect((await store.append(stream, twoMore, 'any')).nextExpectedRevision).toBe(3);

      const missing = `${stream}-missing`;
      await expectConflict(store.append(missing, [testEvent('PolicyIssued', {})], 0), missing, 0, 'no_stream');
      expect((await store.append(`${stream}-new`, [testEvent('PolicyIssued', {})], 'any')).nextExpectedRevision).toBe(
        0,
      );

      // Refused appends wrote nothing.
      const types = (await store.readStream(stream)).map((event) => event.type);
      expect(types).toEqual(['PolicyIssued', 'TriggerEvaluated', 'TriggerBreached', 'PayoutApproved']);
      expect(await store.readStream(missing)).toEqual([]);
    });

    it('lets exactly one of two appends racing for the same revision win', async () => {
      const prefix = uniquePrefix('race');
      for (let round = 0; round < 20; round++) {
        const stream = `${prefix}${round}`;
        // Even rounds race to create the stream, odd rounds race to extend it.
        const expected: ExpectedRevision = round % 2 === 0 ? 'no_stream' : 0;
        if (expected === 0) await store.append(stream, [testEvent('FarmRegistered', {})], 'no_stream');
        const contenders = [testEvent('FieldAdded', { by: 'a' }), testEvent('FieldAdded', { by: 'b' })];
        const outcomes = await Promise.allSettled(contenders.map((event) => store.append(stream, [event], expected)));

        const winners = outcomes.flatMap((outcome, i) => (outcome.status === 'fulfilled' ? [contenders[i]!] : []));
        const losers = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
        expect(winners).toHaveLength(1);
        expect(losers).toHaveLength(1);
        expect(losers[0]).toBeInstanceOf(WrongExpectedRevisionError);
        expect(losers[0]).toMatchObject({ streamId: stream, expected, actual: expected === 'no_stream' ? 0 : 1 });
        const last = (await store.readStream(stream)).at(-1);
        expect(last?.metadata.event_id).toBe(winners[0]?.metadata.event_id);
      }
    });

    it('appends to several streams at once, all or none, and names the stream whose revision is wrong', async () => {
      const prefix = uniquePrefix('multi');
      const [shareable, farm] = [`${prefix}shareable`, `${prefix}farm`];
      await store.append(shareable, [testEvent('ShareableIdReserved', { n: 1 })], 'no_stream');
      const claim = testEvent('ShareableIdClaimed', { farm });
      const registered = [testEvent('FarmRegistered', {}), testEvent('FieldAdded', {})];
      const results = await store.appendToStreams([
        { streamId: shareable, events: [claim], expected: 0 },
        { streamId: farm, events: registered, expected: 'no_stream' },
      ]);
      expect(results.map((result) => result.nextExpectedRevision)).toEqual([1, 1]);
      expect((await store.readStream(shareable)).at(-1)?.metadata.event_id).toBe(claim.metadata.event_id);
      expect((await store.readStream(farm)).map((event) => event.metadata.event_id)).toEqual(
        registered.map((event) => event.metadata.event_id),
      );

      // The second stream's expectation fails: neither stream is written, and the error names the second.
      const other = `${prefix}other`;
      await expectConflict(
        store.appendToStreams([
          { streamId: other, events: [testEvent('FarmRegistered', {})], expected: 'no_stream' },
          { streamId: farm, events: [testEvent('FieldAdded', {})], expected: 0 },
        ]),
        farm,
        0,
        1,
      );
      // The first stream's expectation fails, the second's holds.
      await expectConflict(
        store.appendToStreams([
          { streamId: shareable, events: [testEvent('ShareableIdClaimed', {})], expected: 'no_stream' },
          { streamId: other, events: [testEvent('FarmRegistered', {})], expected: 'any' },
        ]),
        shareable,
        'no_stream',
        1,
      );
      expect(await store.readStream(other)).toEqual([]);
      expect(await store.readStream(farm)).toHaveLength(2);
      expect(await store.readStream(shareable)).toHaveLength(2);
    });

    it('gives a multi-stream append positions in the order of its streams, which a subscriber sees together', async () => {
      const prefix = uniquePrefix('multipos');
      const head = await store.headPosition();
      const collector = collectEvents(store, head);
      try {
        const appends = [
          { streamId: `${prefix}a`, events: [testEvent('FarmRegistered', {}), testEvent('FieldAdded', {})] },
          { streamId: `${prefix}b`, events: [testEvent('ShareableIdClaimed', {})] },
          { streamId: `${prefix}c`, events: [testEvent('FarmerRegistered', {})] },
        ];
        const expectedIds = appends.flatMap(({ events }) => events.map((event) => event.metadata.event_id));
        const results = await store.appendToStreams(
          appends.map((append) => ({ ...append, expected: 'no_stream' as const })),
        );
        expectStrictlyIncreasing(results.map((result) => result.position));
        for (const [i, { streamId }] of appends.entries())
          expect((await store.readStream(streamId)).at(-1)?.position).toEqual(results[i]!.position);

        await vi.waitFor(() => expect(collector.idsOf(prefix)).toEqual(expectedIds), DELIVERY_TIMEOUT);
        // Nothing else comes between them: they are one write.
        const first = collector.received.findIndex((event) => event.streamId.startsWith(prefix));
        expect(collector.received.slice(first, first + expectedIds.length).map((e) => e.metadata.event_id)).toEqual(
          expectedIds,
        );
        expectStrictlyIncreasing(collector.received.map((event) => event.position));
        await delay(QUIET_MS);
        expect(collector.idsOf(prefix)).toEqual(expectedIds);
      } finally {
        await collector.stop();
      }
    });

    it('answers each of many concurrent appends on its own expected revision', async () => {
      const prefix = uniquePrefix('each');
      const streams = Array.from({ length: 12 }, (_, i) => `${prefix}${i}`);
      await Promise.all(streams.map((stream) => store.append(stream, [testEvent('PolicyIssued', {})], 'no_stream')));
      // Even streams are appended at their true revision 0, odd ones at a stale 'no_stream', all at once.
      const outcomes = await Promise.allSettled(
        streams.map((stream, i) =>
          store.append(stream, [testEvent('TriggerEvaluated', { i })], i % 2 ? 'no_stream' : 0),
        ),
      );
      for (const [i, outcome] of outcomes.entries()) {
        if (i % 2 === 0) {
          expect(outcome.status).toBe('fulfilled');
          expect(outcome.status === 'fulfilled' && outcome.value.nextExpectedRevision).toBe(1);
        } else {
          expect(outcome.status === 'rejected' && outcome.reason).toMatchObject({
            name: 'WrongExpectedRevisionError',
            streamId: streams[i],
            expected: 'no_stream',
            actual: 0,
          });
        }
      }
      const lengths = await Promise.all(streams.map(async (stream) => (await store.readStream(stream)).length));
      expect(lengths).toEqual(streams.map((_, i) => (i % 2 ? 1 : 2)));
    });
  });
};

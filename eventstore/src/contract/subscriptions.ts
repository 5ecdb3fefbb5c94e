import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventStore, GlobalPosition } from '../port';
import { comparePositions } from '../position';
import { type ContractSubject, uniquePrefix } from './contract-subject';
import { collectEvents } from './event-collector';
import { DELIVERY_TIMEOUT, delay, expectStrictlyIncreasing, idsOf, QUIET_MS, readAllPaged } from './log-checks';
import { testEvent } from './test-event';

// Subscriptions to $all: exactly once and in order under load, from any position into live appends, a
// failed batch retried, and stop() waiting for the batch in flight.

export const describeSubscriptions = (subject: ContractSubject): void => {
  describe('subscriptions', () => {
    let store: EventStore;
    beforeAll(() => {
      store = subject.store();
    });

    it('delivers 8 writers × 500 appends to a subscriber exactly once, in the order $all reads them', async () => {
      const prefix = uniquePrefix('load');
      const head = await store.headPosition();
      const collector = collectEvents(store, head, { batchSize: 200 });
      const appendedIds = new Set<string>();
      const positionsById = new Map<string, GlobalPosition>();
      try {
        await Promise.all(
          Array.from({ length: 8 }, async (_, writer) => {
            const revisions = new Map<string, number>();
            for (let i = 0; i < 500; i++) {
              const stream = `${prefix}w${writer}-s${i % 5}`;
              const event = testEvent('IndexReadingRecorded', { writer, i, value: Math.sin(i) });
              const result = await store.append(stream, [event], revisions.get(stream) ?? 'no_stream');
              revisions.set(stream, result.nextExpectedRevision);
              appendedIds.add(event.metadata.event_id);
              positionsById.set(event.metadata.event_id, result.position);
            }
          }),
        );
        await vi.waitFor(() => expect(collector.idsOf(prefix).length).toBeGreaterThanOrEqual(4000), DELIVERY_TIMEOUT);
        await delay(QUIET_MS);
      } finally {
        await collector.stop();
      }

      const delivered = collector.idsOf(prefix);
      expect(delivered).toHaveLength(4000);
      expect(new Set(delivered)).toEqual(appendedIds);
      expectStrictlyIncreasing(collector.received.map((event) => event.position));
      for (const event of collector.received.filter((e) => e.streamId.startsWith(prefix)))
        expect(event.position).toEqual(positionsById.get(event.metadata.event_id));
      const revisionsByStream = new Map<string, number[]>();
      for (const event of collector.received.filter((e) => e.streamId.startsWith(prefix)))
        revisionsByStream.set(event.streamId, [...(revisionsByStream.get(event.streamId) ?? []), event.revision]);
      for (const revisions of revisionsByStream.values()) expect(revisions).toEqual(revisions.map((_, i) => i));

      const reread = await readAllPaged(store, 'start', 1000);
      expect(idsOf(reread, prefix)).toEqual(delivered);
    });

    it('starts a subscription after a mid position and then follows live appends', async () => {
      const prefix = uniquePrefix('mid');
      const stream = `${prefix}1`;
      const first = Array.from({ length: 10 }, (_, i) => testEvent('FieldAdded', { i }));
      await store.append(stream, first, 'no_stream');
      const stored = await store.readStream(stream);
      const middle = stored[4]!.position;

      const collector = collectEvents(store, middle);
      try {
        const expected = first.slice(5).map((event) => event.metadata.event_id);
        await vi.waitFor(() => expect(collector.idsOf(prefix)).toEqual(expected), DELIVERY_TIMEOUT);

        const live = [testEvent('FieldRemoved', {}), testEvent('FieldAdded', {})];
        await store.append(stream, live, 9);
        expected.push(...live.map((event) => event.metadata.event_id));
        await vi.waitFor(() => expect(collector.idsOf(prefix)).toEqual(expected), DELIVERY_TIMEOUT);
        await delay(QUIET_MS);
        expect(collector.idsOf(prefix)).toEqual(expected);
        for (const event of collector.received) expect(comparePositions(event.position, middle)).toBeGreaterThan(0);
      } finally {
        await collector.stop();
      }
    });

    it('hands a failed batch to the handler again after reporting the error', async () => {
      const prefix = uniquePrefix('retry');
      const head = await store.headPosition();
      const handled: string[][] = [];
      const errors: unknown[] = [];
      let failuresLeft = 2;
      const subscription = store.subscribeToAll(
        head,
        async (batch) => {
          handled.push(idsOf(batch, prefix));
          if (failuresLeft-- > 0) throw new Error('projection database unavailable');
        },
        { onError: (error) => errors.push(error) },
      );
      try {
        const event = testEvent('FarmRegistered', {});
        await store.append(`${prefix}1`, [event], 'no_stream');
        await vi.waitFor(() => expect(handled.length).toBeGreaterThanOrEqual(3), DELIVERY_TIMEOUT);
        expect(handled.slice(0, 3)).toEqual([
          [event.metadata.event_id],
          [event.metadata.event_id],
          [event.metadata.event_id],
        ]);
        expect(errors.map((error) => (error as Error).message)).toEqual([
          'projection database unavailable',
          'projection database unavailable',
        ]);
      } finally {
        await subscription.stop();
      }
    });

    it('stop() waits for the batch in flight and ends delivery', async () => {
      const prefix = uniquePrefix('stop');
      const head = await store.headPosition();
      let releaseHandler = (): void => undefined;
      const handlerReleased = new Promise<void>((resolve) => {
        releaseHandler = resolve;
      });
      const calls: string[][] = [];
      let handlerFinished = false;
      const subscription = store.subscribeToAll(head, async (batch) => {
        calls.push(idsOf(batch, prefix));
        await handlerReleased;
        handlerFinished = true;
      });

      await store.append(`${prefix}1`, [testEvent('FarmRegistered', {})], 'no_stream');
      await vi.waitFor(() => expect(calls.length).toBe(1), DELIVERY_TIMEOUT);
      let stopped = false;
      const stopping = subscription.stop().then(() => {
        stopped = true;
      });
      await delay(200);
      expect(stopped).toBe(false);

      releaseHandler();
      await stopping;
      expect(handlerFinished).toBe(true);

      await store.append(`${prefix}1`, [testEvent('FieldAdded', {})], 0);
      await delay(QUIET_MS);
      expect(calls).toHaveLength(1);
    });
  });
};

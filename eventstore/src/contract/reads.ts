import { beforeAll, describe, expect, it } from 'vitest';
import type { EventStore, GlobalPosition } from '../port';
import { comparePositions } from '../position';
import { type ContractSubject, uniquePrefix } from './contract-subject';
import { expectStrictlyIncreasing, idsOf, readAllPaged, untilReadable } from './log-checks';
import { testEvent } from './test-event';

// Reads of $all: commit order, paging from any position, and which positions the store handed out.

export const describeReads = (subject: ContractSubject): void => {
  describe('reads', () => {
    let store: EventStore;
    beforeAll(() => {
      store = subject.store();
    });

    it('reads $all in commit order and pages from any position', async () => {
      const prefix = uniquePrefix('all');
      const head = await store.headPosition();
      const appended: string[] = [];
      let lastPosition: GlobalPosition | undefined;
      for (let i = 0; i < 9; i++) {
        const events =
          i === 4 ? [testEvent('FieldAdded', { i }), testEvent('FieldAdded', { i })] : [testEvent('FieldAdded', { i })];
        const result = await store.append(`${prefix}${i % 3}`, events, 'any');
        appended.push(...events.map((event) => event.metadata.event_id));
        lastPosition = result.position;
      }
      await untilReadable(store, lastPosition!);

      const all = await store.readAll(head, 1000);
      expect(idsOf(all, prefix)).toEqual(appended);
      expectStrictlyIncreasing(all.map((event) => event.position));
      expect(all.find((event) => event.metadata.event_id === appended.at(-1))?.position).toEqual(lastPosition);

      const paged = await readAllPaged(store, head, 2);
      expect(idsOf(paged, prefix)).toEqual(appended);

      const ours = all.filter((event) => event.streamId.startsWith(prefix));
      const fromMiddle = await store.readAll(ours[3]!.position, 1000);
      expect(idsOf(fromMiddle, prefix)).toEqual(appended.slice(4));

      const newest = await store.headPosition();
      expect(newest).not.toBe('start');
      expect(comparePositions(newest as GlobalPosition, lastPosition!)).toBeGreaterThanOrEqual(0);
    });

    it('tells a position it handed out from one beyond anything it handed out', async () => {
      const { position } = await store.append(uniquePrefix('issued'), [testEvent('FarmRegistered', {})], 'no_stream');
      expect(await store.mayHaveIssued(position)).toBe(true);
      const never = 18_446_744_073_709_551_615n;
      expect(await store.mayHaveIssued({ commit: never, prepare: never })).toBe(false);
      expect(await store.mayHaveIssued({ commit: position.commit, prepare: never })).toBe(false);
    });
  });
};

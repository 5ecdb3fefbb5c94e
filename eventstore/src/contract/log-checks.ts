import { expect, vi } from 'vitest';
import type { AllStreamStart, EventStore, GlobalPosition, RecordedEvent } from '../port';
import { comparePositions, isAtOrAfter } from '../position';

// What the contract's tests check a log with: positions in order, their own events in $all, and how long
// to wait for what a store shows only once the server has it.

export const DELIVERY_TIMEOUT = { timeout: 20_000, interval: 20 };
// Longer than a PostgreSQL subscriber's idle poll, so "nothing arrived" is not just "not yet polled".
export const QUIET_MS = 600;

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const idsOf = (events: readonly RecordedEvent[], prefix: string): string[] =>
  events.filter((event) => event.streamId.startsWith(prefix)).map((event) => event.metadata.event_id);

export const expectStrictlyIncreasing = (positions: readonly GlobalPosition[]): void => {
  for (let i = 1; i < positions.length; i++) {
    const [previous, current] = [positions[i - 1]!, positions[i]!];
    if (comparePositions(previous, current) >= 0)
      expect.fail(
        `position ${i} (${current.commit}.${current.prepare}) is not after ${previous.commit}.${previous.prepare}`,
      );
  }
};

/** Waits until $all shows the log up to `position`. PostgreSQL shows an append only once every older
 *  transaction on the server ended, and other test files run theirs on the same server. */
export const untilReadable = async (store: EventStore, position: GlobalPosition): Promise<void> => {
  await vi.waitFor(async () => expect(isAtOrAfter(await store.headPosition(), position)).toBe(true), DELIVERY_TIMEOUT);
};

/** Pages through $all after `after` with small pages, as a rebuilding projection would. */
export const readAllPaged = async (
  store: EventStore,
  after: GlobalPosition | AllStreamStart,
  pageSize: number,
): Promise<RecordedEvent[]> => {
  const events: RecordedEvent[] = [];
  for (let position = after; ; ) {
    const page = await store.readAll(position, pageSize);
    expect(page.length).toBeLessThanOrEqual(pageSize);
    const last = page.at(-1);
    if (!last) return events;
    events.push(...page);
    position = last.position;
  }
};

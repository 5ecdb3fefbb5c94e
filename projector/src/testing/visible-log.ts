import { type EventStore, type GlobalPosition, isAtOrAfter, type RecordedEvent } from '@cropcover/eventstore';
import { expect, vi } from 'vitest';

// Readers of $all see an event only once every transaction that began before it has ended, and
// PostgreSQL counts the transactions of the whole server: another test file's open transaction holds
// back what this file's readers see for a moment. Tests wait for their appends to become readable.

const WAIT = { timeout: 20_000, interval: 25 } as const;

export const waitUntilVisible = async (eventStore: EventStore, position: GlobalPosition): Promise<void> => {
  await vi.waitFor(async () => expect(isAtOrAfter(await eventStore.headPosition(), position)).toBe(true), WAIT);
};

/** The whole log, once all `count` appended events are readable. */
export const readWholeLog = async (eventStore: EventStore, count: number): Promise<RecordedEvent[]> =>
  vi.waitFor(async () => {
    const events = await eventStore.readAll('start', count + 1);
    expect(events).toHaveLength(count);
    return events;
  }, WAIT);

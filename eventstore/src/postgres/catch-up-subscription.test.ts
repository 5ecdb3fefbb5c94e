import { describe, expect, it, vi } from 'vitest';
import { testEvent } from '../contract/test-event';
import type { AllStreamStart, GlobalPosition, RecordedEvent } from '../port';
import { isAtOrAfter } from '../position';
import type { AppendListener, AppendWatcher } from './append-listener';
import { startCatchUpSubscription } from './catch-up-subscription';

const QUIET_MS = 200;

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const recorded = (commit: bigint): RecordedEvent => ({
  ...testEvent('FarmRegistered', {}),
  streamId: `farm-${commit}`,
  revision: 0,
  position: { commit, prepare: commit },
});

/** A log whose readers see only the events below `readableBelow`, as when an older transaction still runs,
 *  and a listener the test notifies by hand. Counts the reads. */
const fakeLog = () => {
  const events: RecordedEvent[] = [];
  const watchers = new Set<AppendWatcher>();
  const log = {
    events,
    readableBelow: 0,
    reads: 0,
    readAll: async (after: GlobalPosition | AllStreamStart, limit: number): Promise<RecordedEvent[]> => {
      log.reads += 1;
      return events
        .filter((event) => event.position.commit < log.readableBelow && !isAtOrAfter(after, event.position))
        .slice(0, limit);
    },
    listener: {
      watch: (watcher) => {
        watchers.add(watcher);
        return () => watchers.delete(watcher);
      },
      close: async () => undefined,
    } satisfies AppendListener,
    notify: (appended: GlobalPosition | undefined) => {
      for (const watcher of watchers) watcher.onAppended(appended);
    },
  };
  return log;
};

const subscribe = (log: ReturnType<typeof fakeLog>, after: GlobalPosition | AllStreamStart = 'start') => {
  const delivered: RecordedEvent[] = [];
  const subscription = startCatchUpSubscription({
    readAll: log.readAll,
    listener: log.listener,
    after,
    handler: async (batch) => {
      delivered.push(...batch);
    },
    batchSize: 100,
    onError: (error) => expect.fail(String(error)),
    // Longer than any test: whatever is delivered came from a notification.
    pollIntervalMs: 60_000,
    retryDelayMs: 60_000,
  });
  return { delivered, stop: () => subscription.stop() };
};

describe('catch-up subscription', () => {
  it('re-reads soon after a notified append that older transactions still hide, then sleeps again', async () => {
    const log = fakeLog();
    const { delivered, stop } = subscribe(log);
    try {
      await vi.waitFor(() => expect(log.reads).toBe(1));
      const event = recorded(7n);
      log.events.push(event);
      log.notify(event.position);
      // Hidden: the subscriber keeps re-reading instead of sleeping for its minute-long poll.
      await vi.waitFor(() => expect(log.reads).toBeGreaterThanOrEqual(4), { timeout: 5_000, interval: 5 });
      expect(delivered).toEqual([]);

      log.readableBelow = 8;
      await vi.waitFor(() => expect(delivered).toEqual([event]), { timeout: 5_000, interval: 5 });
      const readsWhenDelivered = log.reads;
      await delay(QUIET_MS);
      // One read after the delivery finds nothing more; then it sleeps until the next notification.
      expect(log.reads - readsWhenDelivered).toBeLessThanOrEqual(1);
    } finally {
      await stop();
    }
  });

  it('backs off while the notified append stays hidden', async () => {
    const log = fakeLog();
    const { stop } = subscribe(log);
    try {
      await vi.waitFor(() => expect(log.reads).toBe(1));
      log.events.push(recorded(7n));
      log.notify({ commit: 7n, prepare: 7n });
      await delay(1_000);
      // 5, 10, 20, 40 ms, then every 50 ms: about 22 reads a second, not a busy loop.
      expect(log.reads).toBeGreaterThanOrEqual(5);
      expect(log.reads).toBeLessThanOrEqual(30);
    } finally {
      await stop();
    }
  });

  it('reads once and sleeps again on a notification it has nothing to wait for', async () => {
    const log = fakeLog();
    log.events.push(recorded(3n));
    log.readableBelow = 4;
    const { delivered, stop } = subscribe(log, { commit: 3n, prepare: 3n });
    try {
      await vi.waitFor(() => expect(log.reads).toBe(1));
      // Already delivered, then a notification without a position (the listener reconnected).
      log.notify({ commit: 2n, prepare: 2n });
      await vi.waitFor(() => expect(log.reads).toBe(2));
      log.notify(undefined);
      await vi.waitFor(() => expect(log.reads).toBe(3));
      await delay(QUIET_MS);
      expect(log.reads).toBe(3);
      expect(delivered).toEqual([]);
    } finally {
      await stop();
    }
  });
});

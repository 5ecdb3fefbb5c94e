import { describe, expect, it, vi } from 'vitest';
import { createKurrentDbEventStore } from './kurrentdb-event-store';

// Needs no server: a closed port makes every subscription attempt drop, which is what resubscribing handles.
describe('KurrentDB subscription without a reachable server', () => {
  it('reports each dropped attempt, resubscribes, and stops on request', async () => {
    const store = createKurrentDbEventStore({
      connectionString: 'kurrentdb://127.0.0.1:1?tls=false&maxDiscoverAttempts=1',
      retryDelayMs: 50,
    });
    const errors: unknown[] = [];
    const handler = vi.fn(async () => undefined);
    const subscription = store.subscribeToAll('start', handler, { onError: (error) => errors.push(error) });
    try {
      await vi.waitFor(() => expect(errors.length).toBeGreaterThanOrEqual(3), { timeout: 10_000, interval: 20 });
      expect((errors[0] as Error).message).toMatch(/UNAVAILABLE|ECONNREFUSED/);
    } finally {
      await subscription.stop();
      await store.close();
    }
    const reported = errors.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(errors).toHaveLength(reported);
    expect(handler).not.toHaveBeenCalled();
  });
});

import { type AllStreamSubscription, excludeSystemEvents, type KurrentDBClient } from '@kurrent/kurrentdb-client';
import type { AllStreamStart, GlobalPosition, RecordedEvent, Subscription } from '../port';
import type { Upcast } from '../upcasting';
import { toRecordedEvent } from './event-mapping';

export interface KurrentDbSubscriptionSettings {
  readonly client: KurrentDBClient;
  readonly upcast: Upcast;
  readonly after: GlobalPosition | AllStreamStart;
  readonly handler: (batch: readonly RecordedEvent[]) => Promise<void>;
  readonly batchSize: number;
  readonly onError: (error: unknown) => void;
  readonly retryDelayMs: number;
}

/** Follows $all with the server's catch-up subscription and resubscribes from the last handled position
 *  whenever it drops. Events already buffered are handed over together, up to `batchSize`. */
export const startKurrentDbSubscription = (settings: KurrentDbSubscriptionSettings): Subscription => {
  const { client, upcast, handler, batchSize, onError, retryDelayMs } = settings;
  let stopped = false;
  let current: AllStreamSubscription | undefined;
  let wakeOnStop: (() => void) | undefined;

  const pause = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      if (stopped) {
        resolve();
        return;
      }
      const wake = () => {
        clearTimeout(timer);
        wakeOnStop = undefined;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakeOnStop = wake;
    });

  // Cancelling the call does not always end the stream the iterator waits on, so it is destroyed too.
  const close = async (subscription: AllStreamSubscription): Promise<void> => {
    await subscription.unsubscribe().catch(() => undefined);
    subscription.destroy();
  };

  /** Hands the batch over until the handler accepts it; false when stopped before it did. */
  const deliver = async (batch: readonly RecordedEvent[]): Promise<boolean> => {
    while (!stopped) {
      try {
        await handler(batch);
        return true;
      } catch (error) {
        onError(error);
        await pause(retryDelayMs);
      }
    }
    return false;
  };

  const run = async (): Promise<void> => {
    let position = settings.after;
    while (!stopped) {
      // The subscription's start position is exclusive, so resubscribing never repeats a handled event.
      const subscription = client.subscribeToAll({ fromPosition: position, filter: excludeSystemEvents() });
      current = subscription;
      let pending: RecordedEvent[] = [];
      try {
        for await (const resolved of subscription) {
          if (stopped) break;
          const event = toRecordedEvent(resolved);
          if (event) pending.push(upcast(event));
          const last = pending.at(-1);
          if (!last || (pending.length < batchSize && subscription.readableLength > 0)) continue;
          if (!(await deliver(pending))) break;
          position = last.position;
          pending = [];
        }
      } catch (error) {
        if (!stopped) onError(error);
      } finally {
        current = undefined;
        await close(subscription);
      }
      if (!stopped) await pause(retryDelayMs);
    }
  };

  const running = run();
  return {
    stop: async () => {
      stopped = true;
      wakeOnStop?.();
      // Ends a subscription waiting for events; one whose handler runs finishes that batch first.
      if (current) await close(current);
      await running;
    },
  };
};

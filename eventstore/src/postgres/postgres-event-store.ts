import type pg from 'pg';
import type { EventStore } from '../port';
import { DEFAULT_BATCH_SIZE, DEFAULT_RETRY_DELAY_MS, reportToConsole } from '../subscription-defaults';
import { createSubscriptionSet } from '../subscription-set';
import { createUpcast, type Upcaster } from '../upcasting';
import { appendEvents } from './append';
import { createAppendListener } from './append-listener';
import { createAppendNotifier } from './append-notifier';
import { startCatchUpSubscription } from './catch-up-subscription';
import { readAllEvents, readHeadPosition, readStreamEvents } from './read';

export interface PostgresEventStoreOptions {
  /** Owned by the caller: `close()` leaves it open. Run `migrateEventStore(pool)` once before use. */
  readonly pool: pg.Pool;
  readonly upcasters?: readonly Upcaster[];
  /** Longest an idle subscriber waits between reads when no notification wakes it. */
  readonly pollIntervalMs?: number;
  /** Pause before a subscriber retries a failed read or handler. */
  readonly retryDelayMs?: number;
}

const DEFAULT_POLL_INTERVAL_MS = 200;

export const createPostgresEventStore = (options: PostgresEventStoreOptions): EventStore => {
  const { pool } = options;
  const upcast = createUpcast(options.upcasters);
  const notifier = createAppendNotifier(pool);
  const listener = createAppendListener(pool);
  const subscriptions = createSubscriptionSet();

  const store: EventStore = {
    append: async (streamId, events, expected) => {
      const result = await appendEvents(pool, streamId, events, expected);
      notifier.notify(result.position);
      return result;
    },
    readStream: (streamId, readOptions) =>
      readStreamEvents(pool, upcast, streamId, readOptions?.fromRevision, readOptions?.limit),
    readAll: (after, limit) => readAllEvents(pool, upcast, after, limit),
    subscribeToAll: (after, handler, subscriptionOptions) => {
      const subscription = startCatchUpSubscription({
        readAll: store.readAll,
        listener,
        after,
        handler,
        batchSize: subscriptionOptions?.batchSize ?? DEFAULT_BATCH_SIZE,
        onError: subscriptionOptions?.onError ?? reportToConsole,
        pollIntervalMs: options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
        retryDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
      });
      return subscriptions.track(subscription);
    },
    headPosition: () => readHeadPosition(pool),
    close: async () => {
      await subscriptions.stopAll();
      await listener.close();
      await notifier.settled();
    },
  };
  return store;
};

import type pg from 'pg';
import type { EventStore } from '../port';
import { DEFAULT_BATCH_SIZE, DEFAULT_RETRY_DELAY_MS, reportToConsole } from '../subscription-defaults';
import { createSubscriptionSet } from '../subscription-set';
import { createUpcast, type Upcaster } from '../upcasting';
import { appendAllOrNone, encodeAppend } from './append';
import { createAppendListener } from './append-listener';
import { startCatchUpSubscription } from './catch-up-subscription';
import { createGroupCommit } from './group-commit';
import { mayHaveIssued, readAllEvents, readHeadPosition, readStreamEvents } from './read';

export interface PostgresEventStoreOptions {
  /** Owned by the caller: `close()` leaves it open. Run `migrateEventStore(pool)` once before use. */
  readonly pool: pg.Pool;
  readonly upcasters?: readonly Upcaster[];
  /** Longest an idle subscriber waits between reads when no notification wakes it. */
  readonly pollIntervalMs?: number;
  /** Pause before a subscriber retries a failed read or handler. */
  readonly retryDelayMs?: number;
  /** Most append statements the store runs at once; appends arriving meanwhile share the next one (group
   *  commit). */
  readonly maxAppendStatementsInFlight?: number;
}

const DEFAULT_POLL_INTERVAL_MS = 200;
// Measured with 8 writers (docs/benchmarks.md, Event store): two statements at a time, each taking every
// append that waited, beat one (a preempted backend stalls all writers) and four or eight (smaller batches,
// and notifying transactions commit one at a time anyway).
const DEFAULT_APPEND_STATEMENTS_IN_FLIGHT = 2;
const MAX_APPENDS_PER_STATEMENT = 64;

export const createPostgresEventStore = (options: PostgresEventStoreOptions): EventStore => {
  const { pool } = options;
  const upcast = createUpcast(options.upcasters);
  const listener = createAppendListener(pool);
  const subscriptions = createSubscriptionSet();
  const groupCommit = createGroupCommit(pool, {
    maxStatementsInFlight: options.maxAppendStatementsInFlight ?? DEFAULT_APPEND_STATEMENTS_IN_FLIGHT,
    maxAppendsPerStatement: MAX_APPENDS_PER_STATEMENT,
  });

  const store: EventStore = {
    append: async (streamId, events, expected) => groupCommit.append(encodeAppend({ streamId, events, expected })),
    appendToStreams: async (appends) => appendAllOrNone(pool, appends.map(encodeAppend)),
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
    mayHaveIssued: (position) => mayHaveIssued(pool, position),
    close: async () => {
      await subscriptions.stopAll();
      await listener.close();
    },
  };
  return store;
};

import pg from 'pg';
import type { GlobalPosition } from '../port';
import { parsePosition } from '../position';
import { APPENDED_CHANNEL } from './append';

export interface AppendWatcher {
  /** `appended`: the committed position the notification carried; undefined when unknown (after the
   *  listener reconnected, or from a notifier that sent no position). */
  readonly onAppended: (appended: GlobalPosition | undefined) => void;
  readonly onError: (error: unknown) => void;
}

export interface AppendListener {
  /** Starts calling the watcher on every append notification; returns the function that stops it. */
  watch(watcher: AppendWatcher): () => void;
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 1000;

/** One LISTEN connection per store, opened on the first watch, reopened after it fails. */
export const createAppendListener = (pool: pg.Pool): AppendListener => {
  const watchers = new Set<AppendWatcher>();
  let closed = false;
  let current: pg.Client | undefined;
  let interruptDelay: (() => void) | undefined;
  let running: Promise<void> | undefined;

  const wakeAll = (appended: GlobalPosition | undefined) => {
    for (const watcher of watchers) watcher.onAppended(appended);
  };
  const reportAll = (error: unknown) => {
    for (const watcher of watchers) watcher.onError(error);
  };

  const listenUntilConnectionEnds = async (): Promise<void> => {
    const client = new pg.Client(pool.options);
    // Kept for the client's whole life: an 'error' event without a listener would crash the process.
    const ended = new Promise<unknown>((resolve) => {
      client.on('error', resolve);
      client.on('end', () => resolve(undefined));
    });
    client.on('notification', (message) => wakeAll(parsePosition(message.payload ?? '')));
    try {
      await client.connect();
      await client.query(`listen ${APPENDED_CHANNEL}`);
      current = client;
      // Appends committed while nobody listened would otherwise wait for the subscribers' next poll.
      wakeAll(undefined);
      if (closed) return;
      const error = await ended;
      if (error && !closed) reportAll(error);
    } catch (error) {
      if (!closed) reportAll(error);
    } finally {
      current = undefined;
      await client.end().catch(() => undefined);
    }
  };

  const run = async (): Promise<void> => {
    while (!closed) {
      await listenUntilConnectionEnds();
      if (closed) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, RECONNECT_DELAY_MS);
        interruptDelay = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      interruptDelay = undefined;
    }
  };

  return {
    watch: (watcher) => {
      watchers.add(watcher);
      if (!running && !closed) running = run();
      return () => {
        watchers.delete(watcher);
      };
    },
    close: async () => {
      closed = true;
      interruptDelay?.();
      await current?.end().catch(() => undefined);
      await running;
    },
  };
};

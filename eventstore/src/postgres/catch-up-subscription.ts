import type { AllStreamStart, GlobalPosition, RecordedEvent, Subscription } from '../port';
import type { AppendListener } from './append-listener';

export interface CatchUpSubscriptionSettings {
  readonly readAll: (after: GlobalPosition | AllStreamStart, limit: number) => Promise<RecordedEvent[]>;
  readonly listener: AppendListener;
  readonly after: GlobalPosition | AllStreamStart;
  readonly handler: (batch: readonly RecordedEvent[]) => Promise<void>;
  readonly batchSize: number;
  readonly onError: (error: unknown) => void;
  /** Longest wait between reads while idle: the oldest running transaction may end without any notify. */
  readonly pollIntervalMs: number;
  readonly retryDelayMs: number;
}

/** Reads $all in batches after the last handled position; sleeps until an append notification or the poll. */
export const startCatchUpSubscription = (settings: CatchUpSubscriptionSettings): Subscription => {
  const { readAll, listener, handler, batchSize, onError, pollIntervalMs, retryDelayMs } = settings;
  let stopped = false;
  // Set by a notification, so one arriving while a read is in flight is not lost.
  let appendedSinceRead = false;
  let wakeOnAppend: (() => void) | undefined;
  let wakeOnStop: (() => void) | undefined;

  const sleep = (ms: number, untilAppended: boolean): Promise<void> =>
    new Promise<void>((resolve) => {
      if (stopped || (untilAppended && appendedSinceRead)) {
        resolve();
        return;
      }
      const wake = () => {
        clearTimeout(timer);
        wakeOnAppend = undefined;
        wakeOnStop = undefined;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakeOnStop = wake;
      if (untilAppended) wakeOnAppend = wake;
    });

  const unwatch = listener.watch({
    onAppended: () => {
      appendedSinceRead = true;
      wakeOnAppend?.();
    },
    onError,
  });

  /** Hands the batch over until the handler accepts it; false when stopped before it did. */
  const deliver = async (batch: readonly RecordedEvent[]): Promise<boolean> => {
    while (!stopped) {
      try {
        await handler(batch);
        return true;
      } catch (error) {
        onError(error);
        await sleep(retryDelayMs, false);
      }
    }
    return false;
  };

  const run = async (): Promise<void> => {
    let position = settings.after;
    while (!stopped) {
      appendedSinceRead = false;
      let batch: RecordedEvent[];
      try {
        batch = await readAll(position, batchSize);
      } catch (error) {
        onError(error);
        await sleep(retryDelayMs, false);
        continue;
      }
      const last = batch.at(-1);
      if (!last) {
        await sleep(pollIntervalMs, true);
        continue;
      }
      if (!(await deliver(batch))) return;
      position = last.position;
    }
  };

  const running = run().finally(unwatch);
  return {
    stop: async () => {
      stopped = true;
      wakeOnStop?.();
      await running;
    },
  };
};

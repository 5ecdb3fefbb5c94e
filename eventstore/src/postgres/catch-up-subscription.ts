import type { AllStreamStart, GlobalPosition, RecordedEvent, Subscription } from '../port';
import { isAtOrAfter } from '../position';
import type { AppendListener } from './append-listener';

export interface CatchUpSubscriptionSettings {
  readonly readAll: (after: GlobalPosition | AllStreamStart, limit: number) => Promise<RecordedEvent[]>;
  readonly listener: AppendListener;
  readonly after: GlobalPosition | AllStreamStart;
  readonly handler: (batch: readonly RecordedEvent[]) => Promise<void>;
  readonly batchSize: number;
  readonly onError: (error: unknown) => void;
  /** Longest wait between reads while no notified append is pending: the fallback for a lost notification. */
  readonly pollIntervalMs: number;
  readonly retryDelayMs: number;
}

// A notified append is committed, yet $all may not show it while any older transaction in the cluster
// runs. That transaction's end sends no notification, so the subscriber re-reads soon rather than at its
// poll: first after a few ms (most transactions are short), backing off so a long one costs little.
const FIRST_RETRY_MS = 5;
const MAX_RETRY_MS = 50;

/** Reads $all in batches after the last handled position; sleeps until an append notification or the poll. */
export const startCatchUpSubscription = (settings: CatchUpSubscriptionSettings): Subscription => {
  const { readAll, listener, handler, batchSize, onError, pollIntervalMs, retryDelayMs } = settings;
  let stopped = false;
  let position = settings.after;
  // The highest notified position not delivered yet: while there is one, an empty read is only early.
  let notifiedAhead: GlobalPosition | undefined;
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
    onAppended: (appended) => {
      appendedSinceRead = true;
      // Each process notifies on its own, so a lower position can arrive after a higher one.
      if (appended && !isAtOrAfter(position, appended) && !isAtOrAfter(notifiedAhead ?? 'start', appended))
        notifiedAhead = appended;
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
    let earlyRetryMs = FIRST_RETRY_MS;
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
      if (last) {
        if (!(await deliver(batch))) return;
        position = last.position;
        if (notifiedAhead && isAtOrAfter(position, notifiedAhead)) notifiedAhead = undefined;
        earlyRetryMs = FIRST_RETRY_MS;
      } else if (notifiedAhead) {
        await sleep(earlyRetryMs, true);
        earlyRetryMs = Math.min(earlyRetryMs * 2, MAX_RETRY_MS);
      } else {
        await sleep(pollIntervalMs, true);
      }
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

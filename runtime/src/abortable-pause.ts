/** Resolves after `ms`, or at once when `signal` aborts or has aborted already: a loop that waits between
 *  attempts stops without waiting out its pause, also when it was stopped while it worked. */
export const pauseUnlessAborted = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });

/** Rest between a loop's rounds of work that a wake cuts short: one pending timer and resolver, nothing
 *  kept per round, so a loop that idles every few milliseconds for months holds no more than one that
 *  never ran (`AbortSignal.any` with a long-lived stop signal keeps every signal it made, on Node 20). */
export interface WakeableIdle {
  /** Ends the idle under way; one that comes while the owner works is kept, and the next idle ends at once. */
  wake(): void;
  /** Resolves after `ms`, at a wake, or at stop; one owner idles at a time. */
  idle(ms: number): Promise<void>;
  /** Ends the idle under way, and every later one at once. */
  stop(): void;
}

export const createWakeableIdle = (): WakeableIdle => {
  let woken = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let resolveIdle: (() => void) | undefined;
  const end = (): void => {
    clearTimeout(timer);
    timer = undefined;
    woken = false;
    const resolve = resolveIdle;
    resolveIdle = undefined;
    resolve?.();
  };
  return {
    wake: () => {
      woken = true;
      if (resolveIdle) end();
    },
    idle: (ms) =>
      new Promise((resolve) => {
        if (stopped || woken) {
          woken = false;
          resolve();
          return;
        }
        end();
        resolveIdle = resolve;
        timer = setTimeout(end, ms);
      }),
    stop: () => {
      stopped = true;
      end();
    },
  };
};

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

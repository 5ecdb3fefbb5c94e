/** Resolves after `ms`, or at once when `signal` aborts: a loop that waits between attempts stops without
 *  waiting out its pause. */
export const pauseUnlessAborted = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });

// How long the publisher waits before trying a failed batch again: doubling from `initialMs` to `maxMs`,
// so a long Kafka outage costs a retry every few seconds, not a storm of them. The wait ends early on stop.

export interface PublishBackoffOptions {
  readonly initialMs: number;
  readonly maxMs: number;
}

export interface PublishBackoff {
  /** Waits after the latest failure; resolves at once when nothing has failed since the last success. */
  beforeAttempt(): Promise<void>;
  failed(): void;
  succeeded(): void;
  /** Ends a wait in progress, and every later one, immediately. */
  interrupt(): void;
}

export const createPublishBackoff = ({ initialMs, maxMs }: PublishBackoffOptions): PublishBackoff => {
  let failures = 0;
  let interrupted = false;
  let wake: (() => void) | undefined;
  return {
    beforeAttempt: () =>
      new Promise<void>((resolve) => {
        if (failures === 0 || interrupted) {
          resolve();
          return;
        }
        const delay = Math.min(maxMs, initialMs * 2 ** (failures - 1));
        const timer = setTimeout(() => {
          wake = undefined;
          resolve();
        }, delay);
        wake = () => {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        };
      }),
    failed: () => {
      failures += 1;
    },
    succeeded: () => {
      failures = 0;
    },
    interrupt: () => {
      interrupted = true;
      wake?.();
    },
  };
};

// When a failed delivery is tried again (SPEC §7): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the
// attempts that failed, then it is given up. Tests shrink the schedule with WEBHOOK_RETRY_SCALE.
const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

/** Attempts in all: the first and one per retry delay. */
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** When to try again after attempt number `attempt` (1-based) failed; undefined when it was the last. */
export const nextDeliveryAttemptAt = (attempt: number, failedAt: Date, retryScale: number): Date | undefined => {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  return delay === undefined ? undefined : new Date(failedAt.getTime() + Math.round(delay * retryScale));
};

/** Shared by both adapters so a subscriber behaves the same whichever log it follows. */
export const DEFAULT_BATCH_SIZE = 500;
export const DEFAULT_RETRY_DELAY_MS = 1000;

/** Used when the caller passes no onError: a failing subscription retries forever, so it must not be silent. */
export const reportToConsole = (error: unknown): void => console.error('event store subscription failed:', error);

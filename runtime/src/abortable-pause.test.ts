import { describe, expect, it } from 'vitest';
import { pauseUnlessAborted } from './abortable-pause';

// The pauses are far longer than the test's timeout: ending at all is what each test shows.
const LONG_MS = 600_000;

describe('a pause unless aborted', () => {
  it('ends when its signal aborts during it', async () => {
    const controller = new AbortController();
    const pause = pauseUnlessAborted(LONG_MS, controller.signal);
    controller.abort();
    await expect(pause).resolves.toBeUndefined();
  });

  it('ends at once when its signal aborted before it began (a loop stopped while it worked)', async () => {
    await expect(pauseUnlessAborted(LONG_MS, AbortSignal.abort())).resolves.toBeUndefined();
  });
});

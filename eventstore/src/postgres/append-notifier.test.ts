import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { APPENDED_CHANNEL, createAppendNotifier } from './append-notifier';

/** A pool whose queries wait until the test lets them finish; records what each one sent. */
const heldPool = () => {
  const sent: unknown[][] = [];
  const finishers: (() => void)[] = [];
  const pool = {
    query: (config: pg.QueryConfig) => {
      sent.push(config.values ?? []);
      return new Promise<void>((resolve) => finishers.push(resolve));
    },
  };
  return { pool: pool as unknown as pg.Pool, sent, finishNext: () => finishers.shift()?.() };
};

describe('append notifier', () => {
  it('sends the position of the append, and one highest position for the appends that finished meanwhile', async () => {
    const { pool, sent, finishNext } = heldPool();
    const notifier = createAppendNotifier(pool);
    notifier.notify({ commit: 10n, prepare: 5n });
    expect(sent).toEqual([[APPENDED_CHANNEL, '10.5']]);

    // Committed while the first NOTIFY is in flight; the highest is not necessarily the last to finish.
    notifier.notify({ commit: 12n, prepare: 7n });
    notifier.notify({ commit: 12n, prepare: 9n });
    notifier.notify({ commit: 11n, prepare: 8n });
    expect(sent).toHaveLength(1);

    finishNext();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([
      [APPENDED_CHANNEL, '10.5'],
      [APPENDED_CHANNEL, '12.9'],
    ]);
    finishNext();
    await notifier.settled();
    expect(sent).toHaveLength(2);
  });
});

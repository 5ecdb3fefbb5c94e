import { afterEach, describe, expect, it, vi } from 'vitest';
import { startDatabaseClock } from './database-clock';
import { createLogger } from './logger';

const logger = createLogger({ level: 'silent' });
const DATABASE_AT = Date.parse('2026-06-01T12:00:00.000Z');

/** A database whose clock reads `times` in turn (a failure where one is an Error), and a monotonic clock
 *  the test moves. */
const fixture = (times: (number | Error)[]) => {
  let monotonic = 1_000;
  const pool = {
    query: vi.fn(async () => {
      const next = times.shift()!;
      if (next instanceof Error) throw next;
      return { rows: [{ at: String(next) }] };
    }),
  };
  return {
    pool: pool as never,
    queries: () => pool.query.mock.calls.length,
    monotonicMs: () => monotonic,
    advance: (ms: number) => {
      monotonic += ms;
    },
  };
};

afterEach(() => {
  vi.useRealTimers();
});

describe('the database clock', () => {
  it("reads the database's time, carried on by the monotonic clock, whatever the wall clock is stepped to", async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(DATABASE_AT - 3_600_000);
    const { pool, monotonicMs, advance } = fixture([DATABASE_AT]);
    const clock = await startDatabaseClock(pool, logger, { monotonicMs });
    expect(clock.now().toISOString()).toBe('2026-06-01T12:00:00.000Z');
    advance(1_500);
    vi.setSystemTime(DATABASE_AT + 86_400_000);
    expect(clock.now().toISOString()).toBe('2026-06-01T12:00:01.500Z');
    clock.stop();
  });

  it('follows the database again every minute, never backwards, and keeps its anchor while the database is away', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { pool, queries, monotonicMs, advance } = fixture([
      DATABASE_AT,
      DATABASE_AT + 60_000 + 5,
      new Error('connection terminated'),
      DATABASE_AT + 180_000 - 5,
    ]);
    const clock = await startDatabaseClock(pool, logger, { monotonicMs });
    const minute = async () => {
      advance(60_000);
      await vi.advanceTimersByTimeAsync(60_000);
    };
    await minute();
    expect(clock.now().getTime()).toBe(DATABASE_AT + 60_000 + 5);
    await minute();
    expect(queries()).toBe(3);
    expect(clock.now().getTime()).toBe(DATABASE_AT + 120_000 + 5);
    advance(60_000);
    expect(clock.now().getTime()).toBe(DATABASE_AT + 180_000 + 5);
    await vi.advanceTimersByTimeAsync(60_000);
    // The database's clock is 10 ms behind where this one went: it waits for it rather than go back.
    expect(clock.now().getTime()).toBe(DATABASE_AT + 180_000 + 5);
    advance(100);
    expect(clock.now().getTime()).toBe(DATABASE_AT + 180_000 + 95);
    clock.stop();
  });
});

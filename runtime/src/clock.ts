// Time is a dependency: code that needs "now" takes a Clock, so tests decide what now is.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface SettableClock extends Clock {
  set(at: Date | string): void;
  advance(milliseconds: number): void;
}

/** A clock that stands still until the test moves it. */
export const settableClock = (start: Date | string = '2026-01-01T00:00:00.000Z'): SettableClock => {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set: (at) => {
      current = new Date(at).getTime();
    },
    advance: (milliseconds) => {
      current += milliseconds;
    },
  };
};

import { access, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// One process's wall clock stepped while the others keep real time, the way NTP or an operator steps a
// machine's clock: Debian's libfaketime, preloaded into the process, offsets what clock_gettime and
// gettimeofday answer for CLOCK_REALTIME by what a file says, re-read on every call (FAKETIME_NO_CACHE),
// so the offset of a running process changes when the file does. The monotonic clock is left alone, as
// a real step leaves it (FAKETIME_DONT_FAKE_MONOTONIC): timers keep their pace. No code path of the
// service knows it is being struck.

export const LIBFAKETIME = process.env.LIBFAKETIME ?? '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

export interface SteppedClock {
  /** What a process needs in its environment to run on this clock. */
  readonly env: Record<string, string>;
  /** Steps the clock to `offset` from real time, in libfaketime's words: `-1h`, `+1d`, `+0`. */
  step(offset: string): Promise<void>;
  remove(): Promise<void>;
}

/** Why clocks cannot be stepped here, or undefined when they can. */
export const whyClocksCannotStep = async (): Promise<string | undefined> => {
  try {
    await access(LIBFAKETIME);
    return undefined;
  } catch {
    return `no libfaketime at ${LIBFAKETIME}: apt-get install faketime (LIBFAKETIME names another place)`;
  }
};

/** A clock at real time until stepped. */
export const createSteppedClock = async (): Promise<SteppedClock> => {
  const home = await mkdtemp(join(tmpdir(), 'cropcover-fault-clock-'));
  const file = join(home, 'offset');
  const step = async (offset: string) => {
    // Written beside and renamed in: a process never reads half an offset.
    await writeFile(`${file}.next`, `${offset}\n`);
    await rename(`${file}.next`, file);
  };
  await step('+0');
  return {
    env: {
      LD_PRELOAD: LIBFAKETIME,
      FAKETIME_TIMESTAMP_FILE: file,
      FAKETIME_NO_CACHE: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    },
    step,
    remove: () => rm(home, { recursive: true, force: true }),
  };
};

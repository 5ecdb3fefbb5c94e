import { execFile } from 'node:child_process';
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

// A disk of a few megabytes the suite can fill to the brim and empty again (SPEC §10 "Disk full"): a
// tmpfs mounted for one scenario, as a small volume under PostgreSQL's data directory or DATA_DIR would
// be. A file written until the kernel answers ENOSPC fills it; removing the file gives the space back.

const run = promisify(execFile);

export interface SmallDisk {
  readonly path: string;
  /** Fills the disk until no page is left; resolves to what gives the space back. */
  fill(): Promise<() => Promise<void>>;
  /** Unmounts it (lazily if a process still holds a file on it), whatever happened before. */
  unmount(): Promise<void>;
}

const isFull = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOSPC';

/** Writes `chunk` after chunk until the disk refuses; a smaller chunk then takes what a bigger one left. */
const writeUntilFull = async (path: string): Promise<void> => {
  const file = await open(path, 'w');
  try {
    for (const size of [1024 * 1024, 4096, 1]) {
      const chunk = Buffer.alloc(size, 0x5a);
      try {
        for (;;) await file.write(chunk);
      } catch (error) {
        if (!isFull(error)) throw error;
      }
    }
  } finally {
    await file.close().catch(() => undefined);
  }
};

/** A tmpfs of `megabytes` mounted on `path` (made if missing), owned by `owner` (uid, gid) when given. */
export const mountSmallDisk = async (
  path: string,
  megabytes: number,
  owner?: readonly [number, number],
): Promise<SmallDisk> => {
  await mkdir(path, { recursive: true });
  const ownership = owner ? `,uid=${owner[0]},gid=${owner[1]}` : '';
  await run('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0700${ownership}`, 'tmpfs', path]);
  const filler = join(path, 'disk-filler');
  return {
    path,
    fill: async () => {
      await writeUntilFull(filler);
      return () => rm(filler, { force: true });
    },
    unmount: async () => {
      await rm(filler, { force: true }).catch(() => undefined);
      await run('umount', [path]).catch(() => run('umount', ['-l', path]));
    },
  };
};

import { randomUUID } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '@cropcover/runtime';
import type { SignedCheckpoint } from '@cropcover/verifiable-log';

/** Where signed checkpoints go to be held by someone other than the database (SPEC §7 Audit). */
export interface CheckpointSink {
  publish(checkpoint: SignedCheckpoint): Promise<void>;
}

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/** SPEC §10: a sink on a full disk says so, in the reason `/readyz` and the log carry. */
const fullDiskSaid = (directory: string, error: unknown): unknown =>
  codeOf(error) === 'ENOSPC' || codeOf(error) === 'EDQUOT'
    ? new Error(`the disk of the checkpoint sink ${directory} is full: ${(error as Error).message}`, { cause: error })
    : error;

/** A strict beginning of `text` (empty too): what an earlier version, which wrote in place, left when a
 *  write was cut short. It is completed, not taken for another text. */
const isCutShort = (held: string, text: string): boolean => held.length < text.length && text.startsWith(held);

/**
 * Writes `text` to `path` whole or not at all, never over another file: it is written beside, then linked
 * in (link fails on an existing name, as `wx` does). A write cut short — the disk full, the process
 * killed — leaves only the file beside, removed here or ignored by every reader (its name starts with a
 * dot), never a torn `path` that the next attempt would take for another text. Resolves to what `path`
 * held already, or undefined when it now holds `text`.
 */
const writeWholeOnce = async (directory: string, path: string, text: string): Promise<string | undefined> => {
  const beside = join(directory, `.incoming-${randomUUID()}`);
  try {
    await writeFile(beside, text, { flag: 'wx' });
    await link(beside, path);
    return undefined;
  } catch (error) {
    if (codeOf(error) !== 'EEXIST') throw fullDiskSaid(directory, error);
    const held = await readFile(path, 'utf8');
    if (!isCutShort(held, text)) return held;
    await rename(beside, path).catch((cut: unknown) => {
      throw fullDiskSaid(directory, cut);
    });
    return undefined;
  } finally {
    await rm(beside, { force: true });
  }
};

/** One file per checkpoint, `<size>.checkpoint`, never overwritten: the default sink. In production the
 *  directory is object storage with a retention lock; here a write that would change a file is refused. */
export const directoryCheckpointSink = (directory: string): CheckpointSink => ({
  publish: async (checkpoint) => {
    await mkdir(directory, { recursive: true }).catch((error: unknown) => {
      throw fullDiskSaid(directory, error);
    });
    const held = await writeWholeOnce(directory, join(directory, `${checkpoint.size}.checkpoint`), checkpoint.note);
    // Published before a crash kept it from being marked: the same note again is no change.
    if (held !== undefined && held !== checkpoint.note)
      throw new Error(`the checkpoint sink already holds a different checkpoint of size ${checkpoint.size}`);
  },
});

/** The file that says whose sink a directory is: the id of the one log it holds. */
const LOG_ID_FILE = 'log-id';

export interface SinkClaim {
  readonly directory: string;
  readonly logId: string;
  /** Whether AUDIT_CHECKPOINT_DIR named the directory (else it is the log's own under DATA_DIR). */
  readonly configured: boolean;
  /** The note this log signed at a size, if it signed one. */
  readonly signedNote: (size: number) => Promise<string | undefined>;
}

const readClaim = async (path: string): Promise<string | undefined> => {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

const foreignSink = ({ directory, logId, configured }: SinkClaim, why: string): ConfigError =>
  new ConfigError([
    `${configured ? 'AUDIT_CHECKPOINT_DIR' : 'the audit checkpoint sink'}: ${directory} holds another audit log's checkpoints (${why}); this database's log is ${logId}. One log, one sink: ${
      configured
        ? `point AUDIT_CHECKPOINT_DIR at a directory of this log's own (a new, empty one), or unset it to use <DATA_DIR>/audit-checkpoints/${logId}`
        : `move the files this log did not sign out of ${directory}`
    }.`,
  ]);

/** At start, before the integrator publishes (SPEC §10): the directory must hold this log's checkpoints
 *  only, else a ConfigError says whose it is and what to do. A directory with no claim yet (new, or
 *  written before logs had ids) is this log's when every checkpoint in it is one this log signed; it is
 *  then claimed, so later starts read one file. */
export const claimCheckpointSinkDirectory = async (claim: SinkClaim): Promise<void> => {
  const { directory, logId } = claim;
  await mkdir(directory, { recursive: true });
  const claimPath = join(directory, LOG_ID_FILE);
  const text = `${logId}\n`;
  const claimed = await readClaim(claimPath);
  // A claim cut short is no claim: it is completed below.
  if (claimed !== undefined && !isCutShort(claimed, text)) {
    if (claimed.trim() !== logId) throw foreignSink(claim, `it is the sink of log ${claimed.trim()}`);
    return;
  }
  for (const name of await readdir(directory)) {
    const size = /^(\d+)\.checkpoint$/.exec(name)?.[1];
    if (size === undefined) continue;
    if ((await readFile(join(directory, name), 'utf8')) !== (await claim.signedNote(Number(size))))
      throw foreignSink(claim, `its ${name} is not a checkpoint this log signed`);
  }
  const held = await writeWholeOnce(directory, claimPath, text);
  if (held !== undefined && held.trim() !== logId) throw foreignSink(claim, 'another log claimed it meanwhile');
};

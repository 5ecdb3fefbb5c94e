import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '@cropcover/runtime';
import type { SignedCheckpoint } from '@cropcover/verifiable-log';

/** Where signed checkpoints go to be held by someone other than the database (SPEC §7 Audit). */
export interface CheckpointSink {
  publish(checkpoint: SignedCheckpoint): Promise<void>;
}

/** One file per checkpoint, `<size>.checkpoint`, never overwritten: the default sink. In production the
 *  directory is object storage with a retention lock; here a write that would change a file is refused. */
export const directoryCheckpointSink = (directory: string): CheckpointSink => ({
  publish: async (checkpoint) => {
    await mkdir(directory, { recursive: true });
    const path = join(directory, `${checkpoint.size}.checkpoint`);
    try {
      await writeFile(path, checkpoint.note, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // Published before a crash kept it from being marked: the same note again is no change.
      if ((await readFile(path, 'utf8')) !== checkpoint.note)
        throw new Error(`the checkpoint sink already holds a different checkpoint of size ${checkpoint.size}`);
    }
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
    return (await readFile(path, 'utf8')).trim();
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
  const claimed = await readClaim(claimPath);
  if (claimed !== undefined) {
    if (claimed !== logId) throw foreignSink(claim, `it is the sink of log ${claimed}`);
    return;
  }
  for (const name of await readdir(directory)) {
    const size = /^(\d+)\.checkpoint$/.exec(name)?.[1];
    if (size === undefined) continue;
    if ((await readFile(join(directory, name), 'utf8')) !== (await claim.signedNote(Number(size))))
      throw foreignSink(claim, `its ${name} is not a checkpoint this log signed`);
  }
  try {
    await writeFile(claimPath, `${logId}\n`, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if ((await readClaim(claimPath)) !== logId) throw foreignSink(claim, 'another log claimed it meanwhile');
  }
};

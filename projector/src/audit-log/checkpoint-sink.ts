import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

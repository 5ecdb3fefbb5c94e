import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SignedCheckpoint } from '@cropcover/verifiable-log';
import { describe, expect, it } from 'vitest';
import { claimCheckpointSinkDirectory, directoryCheckpointSink } from './checkpoint-sink';

// SPEC §10: a checkpoint write cut short (a full disk, a killed process) leaves no torn file the next
// attempt would take for another checkpoint, so the sink takes checkpoints again once space returns.

const checkpoint = (size: number, note: string): SignedCheckpoint =>
  ({ origin: 'cropcover.test/audit/v1', size, root: new Uint8Array(32), note }) as SignedCheckpoint;
const NOTE = 'cropcover.test/audit/v1\n7\nAAAA\n\n— cropcover.test signature\n';
const sinkDirectory = () => mkdtemp(join(tmpdir(), 'cropcover-sink-'));

describe('the directory checkpoint sink', () => {
  it('writes each checkpoint once, whole, and leaves nothing beside it', async () => {
    const directory = await sinkDirectory();
    const sink = directoryCheckpointSink(directory);
    await sink.publish(checkpoint(7, NOTE));
    await sink.publish(checkpoint(7, NOTE));
    expect(await readdir(directory)).toEqual(['7.checkpoint']);
    expect(await readFile(join(directory, '7.checkpoint'), 'utf8')).toBe(NOTE);
  });

  it('completes a checkpoint an earlier write cut short (empty or a beginning of it)', async () => {
    for (const torn of ['', NOTE.slice(0, 10)]) {
      const directory = await sinkDirectory();
      await writeFile(join(directory, '7.checkpoint'), torn);
      await directoryCheckpointSink(directory).publish(checkpoint(7, NOTE));
      expect(await readFile(join(directory, '7.checkpoint'), 'utf8')).toBe(NOTE);
      expect(await readdir(directory)).toEqual(['7.checkpoint']);
    }
  });

  it('still refuses a different checkpoint of the same size, and keeps it', async () => {
    const directory = await sinkDirectory();
    const other = NOTE.replace('AAAA', 'BBBB');
    await writeFile(join(directory, '7.checkpoint'), other);
    await expect(directoryCheckpointSink(directory).publish(checkpoint(7, NOTE))).rejects.toThrow(
      'already holds a different checkpoint of size 7',
    );
    expect(await readFile(join(directory, '7.checkpoint'), 'utf8')).toBe(other);
    expect(await readdir(directory)).toEqual(['7.checkpoint']);
  });

  it('completes a claim cut short instead of taking it for another log', async () => {
    const directory = await sinkDirectory();
    await writeFile(join(directory, 'log-id'), '');
    const claim = { directory, logId: 'log-1', configured: true, signedNote: async () => undefined };
    await claimCheckpointSinkDirectory(claim);
    expect(await readFile(join(directory, 'log-id'), 'utf8')).toBe('log-1\n');
    await expect(claimCheckpointSinkDirectory({ ...claim, logId: 'log-2' })).rejects.toThrow(
      'it is the sink of log log-1',
    );
  });
});

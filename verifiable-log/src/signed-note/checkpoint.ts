import { fromBase64, toBase64 } from '../bytes';
import { HASH_BYTES } from '../merkle/tree-hashes';
import type { NoteSigner, NoteVerifier } from './note-keys';
import { NoteError, type OpenedNote, openNote, signNote } from './signed-note';

// A C2SP tlog checkpoint (https://c2sp.org/tlog-checkpoint): the note text "<origin>\n<size>\n<base64 root>\n".

export interface Checkpoint {
  readonly origin: string;
  readonly size: number;
  readonly root: Uint8Array;
}

export interface SignedCheckpoint extends Checkpoint {
  /** The signed note, text. */
  readonly note: string;
}

export const checkpointText = ({ origin, size, root }: Checkpoint): string => `${origin}\n${size}\n${toBase64(root)}\n`;

export const signCheckpoint = (checkpoint: Checkpoint, signers: readonly NoteSigner[]): SignedCheckpoint => ({
  ...checkpoint,
  note: signNote(checkpointText(checkpoint), signers),
});

const parseCheckpointText = (text: string): Checkpoint => {
  const [origin, size, root] = text.split('\n');
  if (!origin || !size || !/^(0|[1-9][0-9]*)$/.test(size) || root === undefined)
    throw new NoteError('a checkpoint is an origin, a decimal size and a base64 root');
  const rootBytes = fromBase64(root);
  if (rootBytes.length !== HASH_BYTES || toBase64(rootBytes) !== root)
    throw new NoteError('a checkpoint root is 32 bytes in standard base64');
  return { origin, size: Number(size), root: rootBytes };
};

/** Verifies a signed checkpoint against the known keys (any one suffices: keys rotate) and reads it. */
export const openCheckpoint = (
  note: string,
  verifiers: readonly NoteVerifier[],
): SignedCheckpoint & Pick<OpenedNote, 'verifiedBy'> => {
  const opened = openNote(note, verifiers);
  return { ...parseCheckpointText(opened.text), note, verifiedBy: opened.verifiedBy };
};

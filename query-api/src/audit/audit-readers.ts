import type { AuditCheckpoint } from '@cropcover/contracts';
import type { StoredCheckpoint } from '@cropcover/read-store';

/** Who may read the verifiable log's checkpoints and proofs (SPEC §7 Audit); admin always may. Leaves and
 *  proofs are content-free hashes, so any auditor or insurer may check the whole log. */
export const AUDIT_READERS = ['auditor', 'insurer'] as const;

export const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/** A stored checkpoint as the API shows it; the origin is the note's first line. */
export const checkpointOnTheWire = (checkpoint: StoredCheckpoint): AuditCheckpoint => ({
  origin: checkpoint.note.slice(0, checkpoint.note.indexOf('\n')),
  size: checkpoint.size,
  root: base64(checkpoint.root),
  note: checkpoint.note,
});

import type { GlobalPosition } from '@cropcover/eventstore';
import { sql, type Transaction } from 'kysely';
import { positionFromColumns } from './checkpoints';
import type { ReadModels } from './read-models';

/** PostgreSQL NOTIFY channel on which the projector announces each committed checkpoint, so processes
 *  waiting for their writes to become readable learn of it without polling. */
export const PROJECTIONS_ADVANCED_CHANNEL = 'projections_advanced';

export interface ProjectionProgress {
  readonly name: string;
  readonly position: GlobalPosition;
}

/** Anything that reports projection progress in-process: the projector running in this process. */
export interface ProgressSource {
  /** Calls the listener after each committed batch; returns the function that stops that. */
  onAdvanced(listener: (progress: ProjectionProgress) => void): () => void;
}

// Positions travel as decimal strings: JSON numbers would lose 64-bit precision. One notification names
// every projection a batch moved, all to the same position: one NOTIFY per batch, not one per projection.
export const encodeProgress = (names: readonly string[], position: GlobalPosition): string =>
  JSON.stringify({ names, commit: position.commit.toString(), prepare: position.prepare.toString() });

/** Announces a batch's checkpoints from inside the transaction that moves them: PostgreSQL delivers the
 *  notification on commit and only then, so no waiter hears of rows it cannot read yet, none is missed by a
 *  crash between commit and notify, and the batch costs no transaction of its own for it. */
export const notifyProgress = async (
  trx: Transaction<ReadModels>,
  names: readonly string[],
  position: GlobalPosition,
): Promise<void> => {
  await sql`select pg_notify(${PROJECTIONS_ADVANCED_CHANNEL}, ${encodeProgress(names, position)})`.execute(trx);
};

const DECIMAL = /^\d{1,20}$/;

/** The progress in a notification payload; none when it is not one the projector sent. */
export const decodeProgress = (payload: string): ProjectionProgress[] => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return [];
  }
  if (typeof parsed !== 'object' || parsed === null) return [];
  const { names, commit, prepare } = parsed as Record<string, unknown>;
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) return [];
  if (typeof commit !== 'string' || typeof prepare !== 'string') return [];
  if (!DECIMAL.test(commit) || !DECIMAL.test(prepare)) return [];
  const position = positionFromColumns(commit, prepare);
  return names.map((name: string) => ({ name, position }));
};

import type { GlobalPosition } from '@cropcover/eventstore';
import { positionFromColumns } from './checkpoints';

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

// Positions travel as decimal strings: JSON numbers would lose 64-bit precision.
export const encodeProgress = ({ name, position }: ProjectionProgress): string =>
  JSON.stringify({ name, commit: position.commit.toString(), prepare: position.prepare.toString() });

const DECIMAL = /^\d{1,20}$/;

/** The progress in a notification payload, or undefined when it is not one the projector sent. */
export const decodeProgress = (payload: string): ProjectionProgress | undefined => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { name, commit, prepare } = parsed as Record<string, unknown>;
  if (typeof name !== 'string' || typeof commit !== 'string' || typeof prepare !== 'string') return undefined;
  if (!DECIMAL.test(commit) || !DECIMAL.test(prepare)) return undefined;
  return { name, position: positionFromColumns(commit, prepare) };
};

import { type AllStreamStart, comparePositions, type GlobalPosition, type RecordedEvent } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { notifyProgress, saveCheckpoint, saveCheckpoints } from '@cropcover/read-store';
import type { Kysely } from 'kysely';
import type { Projection } from './projection';
import { holdOffSwap } from './shadow-read-models';

/** Applies a batch and moves the projection's checkpoint to its last event in one transaction: after a
 *  crash either both are there or neither, so nothing is lost and nothing is applied twice.
 *  Returns the new checkpoint, or undefined for an empty batch. */
export const applyBatch = async (
  db: Kysely<ReadModels>,
  projection: Projection,
  batch: readonly RecordedEvent[],
): Promise<GlobalPosition | undefined> => {
  const last = batch.at(-1);
  if (!last) return undefined;
  await db.transaction().execute(async (trx) => {
    await holdOffSwap(trx);
    await projection.apply(trx, batch);
    await saveCheckpoint(trx, projection.name, last.position);
  });
  return last.position;
};

/** The events of a batch a projection at `checkpoint` has not applied yet. */
const unappliedBy = (
  checkpoint: GlobalPosition | AllStreamStart,
  batch: readonly RecordedEvent[],
): readonly RecordedEvent[] =>
  checkpoint === 'start' ? batch : batch.filter((event) => comparePositions(event.position, checkpoint) > 0);

/**
 * Applies one batch of the log to several projections in one transaction, each only the events after its
 * own checkpoint, and moves every checkpoint the batch passes to its last event with the same commit: one
 * transaction per batch however many projections follow the log, and still never a row without its
 * checkpoint. The same transaction announces the new checkpoints to other processes (notifyProgress).
 * Returns the names whose checkpoint moved (none for an empty batch).
 */
export const applyBatchToEach = async (
  db: Kysely<ReadModels>,
  projections: readonly Projection[],
  checkpointOf: (name: string) => GlobalPosition | AllStreamStart,
  batch: readonly RecordedEvent[],
): Promise<readonly string[]> => {
  const last = batch.at(-1);
  if (!last) return [];
  const behind = projections.filter((projection) => {
    const checkpoint = checkpointOf(projection.name);
    return checkpoint === 'start' || comparePositions(checkpoint, last.position) < 0;
  });
  if (behind.length === 0) return [];
  await db.transaction().execute(async (trx) => {
    await holdOffSwap(trx);
    for (const projection of behind) {
      const events = unappliedBy(checkpointOf(projection.name), batch);
      if (events.length > 0) await projection.apply(trx, events);
    }
    const names = behind.map((projection) => projection.name);
    await saveCheckpoints(trx, names, last.position);
    await notifyProgress(trx, names, last.position);
  });
  return behind.map((projection) => projection.name);
};

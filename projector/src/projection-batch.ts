import type { GlobalPosition, RecordedEvent } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { saveCheckpoint } from '@cropcover/read-store';
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

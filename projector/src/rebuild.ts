import {
  type AllStreamStart,
  type EventStore,
  type GlobalPosition,
  isAtOrAfter,
  type RecordedEvent,
} from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { saveCheckpoint } from '@cropcover/read-store';
import type { Kysely, Transaction } from 'kysely';
import type { Projection } from './projection';
import { createShadow, dropShadow, makeShadowDurable, swapShadowIn, writeShadow } from './shadow-read-models';

export interface RebuildOptions {
  readonly eventStore: EventStore;
  readonly db: Kysely<ReadModels>;
  readonly projections: readonly Projection[];
  /** Events read and applied per transaction; large, since nobody waits on a rebuild's progress. */
  readonly batchSize?: number;
}

export interface RebuildResult {
  readonly projections: readonly string[];
  readonly events: number;
  readonly elapsedMs: number;
  readonly eventsPerSecond: number;
}

const DEFAULT_BATCH_SIZE = 5000;

/** Applies a batch to each projection's shadow tables and moves its shadow checkpoint, in `trx`. */
const applyToShadow = async (
  trx: Transaction<ReadModels>,
  projection: Projection,
  batch: readonly RecordedEvent[],
): Promise<void> => {
  await projection.apply(trx, batch);
  await saveCheckpoint(trx, projection.name, batch.at(-1)!.position);
};

/**
 * Replays the whole log into fresh copies of the projections' tables while the live tables keep serving
 * queries (and a running projector keeps them current), then swaps the copies in within one transaction
 * (shadow-read-models.ts): queries never see a half-built read model. A rebuild that fails or is killed
 * leaves the live tables as they were; the next rebuild starts over.
 */
export const rebuildProjections = async ({
  eventStore,
  db,
  projections,
  batchSize = DEFAULT_BATCH_SIZE,
}: RebuildOptions): Promise<RebuildResult> => {
  const started = performance.now();
  const tables = [...new Set(projections.flatMap((projection) => projection.tables))];
  let events = 0;
  let position: GlobalPosition | AllStreamStart = 'start';
  await createShadow(db, tables);
  try {
    // Replays until a batch comes back short, i.e. the copy reached the head as it was then.
    let batch = await eventStore.readAll(position, batchSize);
    while (batch.length > 0) {
      const current = batch;
      const full = current.length === batchSize;
      // The next batch is read while this one is applied; projections write disjoint tables and
      // checkpoints, so they apply it side by side.
      const [following] = await Promise.all([
        full ? eventStore.readAll(current.at(-1)!.position, batchSize) : [],
        ...projections.map((projection) =>
          db.transaction().execute(async (trx) => {
            await writeShadow(trx);
            await applyToShadow(trx, projection, current);
          }),
        ),
      ]);
      events += current.length;
      position = current.at(-1)!.position;
      batch = following;
    }
    await makeShadowDurable(db, tables);
    await swapShadowIn(db, projections, async (trx) => {
      // Up to the head as it is once live batches are locked out: at least what a running projector has
      // applied to the live tables. Later events are its to apply to the new tables, so writers that
      // keep appending cannot keep the swap (and the projector) waiting.
      const head = await eventStore.headPosition();
      while (head !== 'start' && !isAtOrAfter(position, head)) {
        const rest = (await eventStore.readAll(position, batchSize)).filter((event) =>
          isAtOrAfter(head, event.position),
        );
        if (rest.length === 0) return;
        for (const projection of projections) await applyToShadow(trx, projection, rest);
        events += rest.length;
        position = rest.at(-1)!.position;
      }
    });
  } catch (error) {
    await dropShadow(db);
    throw error;
  }
  const elapsedMs = performance.now() - started;
  return {
    projections: projections.map((projection) => projection.name),
    events,
    elapsedMs,
    eventsPerSecond: elapsedMs > 0 ? (events / elapsedMs) * 1000 : 0,
  };
};

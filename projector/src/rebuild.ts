import type { EventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import { type Kysely, sql } from 'kysely';
import type { Projection } from './projection';
import { applyBatch } from './projection-batch';

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

const emptyProjections = async (db: Kysely<ReadModels>, projections: readonly Projection[]): Promise<void> => {
  const tables = [...new Set(projections.flatMap((projection) => projection.tables))];
  const names = projections.map((projection) => projection.name);
  await db.transaction().execute(async (trx) => {
    if (tables.length > 0) await sql`truncate ${sql.join(tables.map((table) => sql.table(table)))}`.execute(trx);
    if (names.length > 0) await trx.deleteFrom('projection_checkpoints').where('name', 'in', names).execute();
  });
};

/**
 * Empties the projections' tables and checkpoints, then replays the whole log into them. Run it with the
 * projector stopped: a projector still running would keep writing from its old checkpoint. Queries see
 * the read models fill up while it runs. Each batch commits rows and checkpoint together, so a rebuild
 * that is interrupted leaves projections the projector simply continues from.
 */
export const rebuildProjections = async ({
  eventStore,
  db,
  projections,
  batchSize = DEFAULT_BATCH_SIZE,
}: RebuildOptions): Promise<RebuildResult> => {
  const started = performance.now();
  await emptyProjections(db, projections);

  let events = 0;
  let batch = await eventStore.readAll('start', batchSize);
  while (batch.length > 0) {
    const current = batch;
    // The next batch is read while this one is applied; projections write disjoint tables and
    // checkpoints, so they apply it side by side.
    const [following] = await Promise.all([
      eventStore.readAll(current.at(-1)!.position, batchSize),
      ...projections.map((projection) => applyBatch(db, projection, current)),
    ]);
    events += current.length;
    batch = following;
  }

  const elapsedMs = performance.now() - started;
  return {
    projections: projections.map((projection) => projection.name),
    events,
    elapsedMs,
    eventsPerSecond: elapsedMs > 0 ? (events / elapsedMs) * 1000 : 0,
  };
};

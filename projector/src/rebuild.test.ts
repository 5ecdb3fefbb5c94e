import { readCheckpoint } from '@cropcover/read-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyBatch } from './projection-batch';
import { farmersProjection } from './projections/farmers-projection';
import { farmsProjection } from './projections/farms-projection';
import { readModelProjections } from './read-model-projections';
import { rebuildProjections } from './rebuild';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from './testing/projector-test-database';
import { dumpReadModels } from './testing/read-model-dump';
import { registryWorkload } from './testing/registry-workload';
import { seededRandom } from './testing/seeded-random';
import { readWholeLog } from './testing/visible-log';

describe('rebuilding projections', () => {
  let t: ProjectorTestDatabase;
  let appended = 0;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('projector_rebuild');
    const workload = registryWorkload(t.eventStore, 'r', seededRandom(42));
    for (let step = 0; step < 300; step += 1) await workload.step();
    appended = workload.appendedEvents();
    const events = await readWholeLog(t.eventStore, appended);
    for (const projection of readModelProjections) await applyBatch(t.db, projection, events);
  });
  afterAll(() => t?.close());

  it('replays the whole log in batches into the same rows and checkpoints', async () => {
    const projected = await dumpReadModels(t.db);
    await t.db
      .insertInto('farm_fields')
      .values({
        farm_id: 'stray',
        field_id: 'x',
        name: 'x',
        area_ha: 1,
        lat: 0,
        lon: 0,
        crop_type: null,
        created_at: new Date(),
      })
      .execute();

    const result = await rebuildProjections({
      eventStore: t.eventStore,
      db: t.db,
      projections: readModelProjections,
      batchSize: 64,
    });

    expect(result).toMatchObject({
      projections: readModelProjections.map((projection) => projection.name),
      events: appended,
    });
    expect(result.elapsedMs).toBeGreaterThan(0);
    expect(result.eventsPerSecond).toBeCloseTo((appended / result.elapsedMs) * 1000);
    expect(await dumpReadModels(t.db)).toEqual(projected);
  });

  it('leaves projections it was not asked to rebuild alone', async () => {
    const farmsBefore = await t.db.selectFrom('farms').selectAll().execute();
    const farmsCheckpoint = await readCheckpoint(t.db, 'farms');
    await t.db.updateTable('farmers').set({ first_name: 'corrupted' }).execute();

    await rebuildProjections({ eventStore: t.eventStore, db: t.db, projections: [farmersProjection] });

    expect(
      await t.db.selectFrom('farmers').select('farmer_id').where('first_name', '=', 'corrupted').execute(),
    ).toEqual([]);
    expect(await t.db.selectFrom('farms').selectAll().execute()).toEqual(farmsBefore);
    expect(await readCheckpoint(t.db, farmsProjection.name)).toEqual(farmsCheckpoint);
  });
});

import { isAtOrAfter } from '@cropcover/eventstore';
import { type ReadModels, readCheckpoint } from '@cropcover/read-store';
import { type Kysely, sql } from 'kysely';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REBUILD_LAG_EVENTS_METRIC } from './lag-metrics';
import { applyBatch } from './projection-batch';
import { farmersProjection } from './projections/farmers-projection';
import { farmsProjection } from './projections/farms-projection';
import { startProjector } from './projector';
import { readModelProjections } from './read-model-projections';
import { rebuildProjections } from './rebuild';
import { SHADOW_SCHEMA } from './shadow-read-models';
import { gatedProjection } from './testing/gated-projection';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from './testing/projector-test-database';
import { dumpReadModels } from './testing/read-model-dump';
import { registryWorkload } from './testing/registry-workload';
import { seededRandom } from './testing/seeded-random';
import { readWholeLog } from './testing/visible-log';

/** What the migrations made of the live tables: columns, constraints and indexes, by name. */
const liveSchema = async (db: Kysely<ReadModels>) => {
  const { rows: columns } = await sql`
    select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
    where table_schema = 'public' order by table_name, column_name`.execute(db);
  const { rows: constraints } = await sql`
    select c.conrelid::regclass::text as "table", c.conname, pg_get_constraintdef(c.oid) as definition
    from pg_constraint c join pg_namespace n on n.oid = c.connamespace
    where n.nspname = 'public' order by 1, 2`.execute(db);
  const { rows: indexes } = await sql`
    select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by 1, 2`.execute(db);
  const { rows: unlogged } = await sql`
    select relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relpersistence <> 'p'`.execute(db);
  return { columns, constraints, indexes, unlogged };
};

const schemaExists = async (db: Kysely<ReadModels>, name: string): Promise<boolean> =>
  (await sql`select 1 from pg_namespace where nspname = ${name}`.execute(db)).rows.length > 0;

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

  it('serves the live rows while it builds, then swaps in tables defined exactly as the migrations made them', async () => {
    const schema = await liveSchema(t.db);
    const projected = await dumpReadModels(t.db);
    const farmers = gatedProjection(farmersProjection.name);
    const metricsRegistry = new Registry();
    const projector = await startProjector({ ...t, projections: readModelProjections, metricsRegistry });
    const rebuildLag = async () =>
      ((await metricsRegistry.getSingleMetric(REBUILD_LAG_EVENTS_METRIC)?.get())?.values ?? []).map(
        ({ labels, value }) => [labels.projection, value],
      );

    const others = readModelProjections.filter((projection) => projection.name !== farmers.name);
    const rebuilding = rebuildProjections({ eventStore: t.eventStore, db: t.db, projections: [farmers, ...others] });
    try {
      await farmers.entered;
      expect(await schemaExists(t.db, SHADOW_SCHEMA)).toBe(true);
      expect(await dumpReadModels(t.db)).toEqual(projected);
      // The farmers copy holds its first batch, so it has no checkpoint yet; the others have replayed all.
      // The others apply the same batch side by side and may still be committing it.
      await vi.waitFor(async () => expect(await rebuildLag()).toContainEqual([farmsProjection.name, 0]), {
        timeout: 10_000,
        interval: 20,
      });
      expect((await rebuildLag()).map(([name]) => name)).not.toContain(farmersProjection.name);
    } finally {
      farmers.open();
      await rebuilding;
    }
    expect(await rebuildLag()).toEqual([]);
    await projector.stop();

    expect(await dumpReadModels(t.db)).toEqual(projected);
    expect(await liveSchema(t.db)).toEqual(schema);
    expect(await schemaExists(t.db, SHADOW_SCHEMA)).toBe(false);
  });

  it('leaves the live tables as they were when it fails', async () => {
    const projected = await dumpReadModels(t.db);
    const failing = {
      ...farmsProjection,
      apply: async () => {
        throw new Error('disk full');
      },
    };
    await expect(rebuildProjections({ eventStore: t.eventStore, db: t.db, projections: [failing] })).rejects.toThrow(
      'disk full',
    );
    expect(await dumpReadModels(t.db)).toEqual(projected);
    expect(await schemaExists(t.db, SHADOW_SCHEMA)).toBe(false);
  });

  it('runs beside a projector and writers, and ends where a rebuild of the quiet log ends', async () => {
    const projector = await startProjector({ ...t, projections: readModelProjections });
    try {
      const workload = registryWorkload(t.eventStore, 'live', seededRandom(7));
      let writing = true;
      const writes = (async () => {
        while (writing) await workload.step();
      })();
      for (let round = 0; round < 2; round += 1) {
        await rebuildProjections({
          eventStore: t.eventStore,
          db: t.db,
          projections: readModelProjections,
          batchSize: 50,
        });
      }
      writing = false;
      await writes;
      const head = await t.eventStore.headPosition();
      await vi.waitFor(
        () => {
          for (const { name } of readModelProjections) {
            expect(head === 'start' || isAtOrAfter(projector.checkpoint(name), head)).toBe(true);
          }
        },
        { timeout: 20_000, interval: 20 },
      );
    } finally {
      await projector.stop();
    }
    const followed = await dumpReadModels(t.db);
    await rebuildProjections({ eventStore: t.eventStore, db: t.db, projections: readModelProjections });
    const rows = (dump: typeof followed) =>
      Object.fromEntries(Object.entries(dump).filter(([table]) => table !== 'projection_checkpoints'));
    expect(rows(followed)).toEqual(rows(await dumpReadModels(t.db)));
  }, 60_000);
});

import { unitAreasStream } from '@cropcover/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyBatch } from '../projection-batch';
import { rebuildProjections } from '../rebuild';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projector-test-database';
import { newEvent } from '../testing/registry-events';
import { waitUntilVisible } from '../testing/visible-log';
import { unitAreasProjection } from './unit-areas-projection';

const ring = [
  [37, 2],
  [38, 2],
  [38, 3],
  [37, 3],
  [37, 2],
];

describe('unit areas projection', () => {
  let t: ProjectorTestDatabase;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('projector_unit_areas');
    const registered = (units: string[], at: string) =>
      newEvent('UnitAreasRegistered', {
        source_id: 'src-grid',
        units: units.map((unitId) => ({
          unit_id: unitId,
          name: unitId,
          polygon: { type: 'Polygon', coordinates: [ring] },
        })),
        registered_by: 'weather-feed',
        registered_at: at,
      });
    await t.eventStore.append(
      unitAreasStream('src-grid'),
      [registered(['KE-B'], '2026-03-01T00:00:00.000Z')],
      'no_stream',
    );
    const last = await t.eventStore.append(
      unitAreasStream('src-grid'),
      [registered(['KE-A', 'KE-C'], '2026-03-02T00:00:00.000Z')],
      'any',
    );
    await waitUntilVisible(t.eventStore, last.position);
  });
  afterAll(() => t?.close());

  const project = async () => applyBatch(t.db, unitAreasProjection, await t.eventStore.readAll('start', 100));
  const units = () => t.db.selectFrom('index_source_units').selectAll().orderBy('unit_id').execute();

  it('records every unit of every registration with its polygon', async () => {
    await project();
    expect(await units()).toEqual([
      {
        source_id: 'src-grid',
        unit_id: 'KE-A',
        name: 'KE-A',
        polygon: { type: 'Polygon', coordinates: [ring] },
        registered_at: new Date('2026-03-02T00:00:00.000Z'),
      },
      expect.objectContaining({ unit_id: 'KE-B', registered_at: new Date('2026-03-01T00:00:00.000Z') }),
      expect.objectContaining({ unit_id: 'KE-C' }),
    ]);
  });

  it('changes nothing when the log is applied again, and rebuilds to the same rows', async () => {
    const before = await units();
    await project();
    expect(await units()).toEqual(before);
    await rebuildProjections({ eventStore: t.eventStore, db: t.db, projections: [unitAreasProjection] });
    expect(await units()).toEqual(before);
  });
});

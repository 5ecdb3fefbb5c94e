import { indexSourceStream } from '@cropcover/domain';
import { fieldSourceRegistered, gridSourceRegistered, stationSourceRegistered } from '@cropcover/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyBatch } from '../projection-batch';
import { rebuildProjections } from '../rebuild';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projector-test-database';
import { newEvent } from '../testing/registry-events';
import { waitUntilVisible } from '../testing/visible-log';
import { indexSourcesProjection } from './index-sources-projection';

describe('index sources projection', () => {
  let t: ProjectorTestDatabase;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('projector_index_sources');
    let last: Awaited<ReturnType<typeof t.eventStore.append>> | undefined;
    for (const { type, data } of [stationSourceRegistered, gridSourceRegistered, fieldSourceRegistered]) {
      last = await t.eventStore.append(indexSourceStream(data.source_id), [newEvent(type, data)], 'no_stream');
    }
    await waitUntilVisible(t.eventStore, last!.position);
  });
  afterAll(() => t?.close());

  const project = async () => applyBatch(t.db, indexSourcesProjection, await t.eventStore.readAll('start', 100));
  const sources = () => t.db.selectFrom('index_sources').selectAll().orderBy('source_id').execute();

  it('records each source with only its own kind of location data', async () => {
    await project();
    expect(await sources()).toEqual([
      {
        source_id: 'src-field',
        organization_id: 'org-data',
        name: 'A field source',
        index: 'ndvi',
        kind: 'field',
        stations: null,
        radius_km: null,
        resolution_deg: null,
        unit: null,
        currency: null,
        cadence: 'daily',
        sampling: 'cell',
        product: null,
        model: null,
        registered_at: new Date('2026-03-01T00:00:00.000Z'),
      },
      expect.objectContaining({ source_id: 'src-grid', kind: 'grid', stations: null, resolution_deg: 0.05 }),
      expect.objectContaining({
        source_id: 'src-station',
        kind: 'station',
        stations: stationSourceRegistered.data.stations,
        radius_km: 25,
        resolution_deg: null,
      }),
    ]);
  });

  it('changes nothing when the log is applied again, and rebuilds to the same rows', async () => {
    const before = await sources();
    await project();
    expect(await sources()).toEqual(before);
    await rebuildProjections({ eventStore: t.eventStore, db: t.db, projections: [indexSourcesProjection] });
    expect(await sources()).toEqual(before);
  });
});

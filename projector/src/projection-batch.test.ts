import { farmerStream } from '@cropcover/domain';
import type { AllStreamStart, GlobalPosition } from '@cropcover/eventstore';
import { readCheckpoint } from '@cropcover/read-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Projection } from './projection';
import { applyBatch, applyBatchToEach } from './projection-batch';
import { farmersProjection } from './projections/farmers-projection';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from './testing/projector-test-database';
import { farmerRegistered } from './testing/registry-events';
import { readWholeLog } from './testing/visible-log';

describe('applying a batch', () => {
  let t: ProjectorTestDatabase;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('projector_batch');
    for (const id of ['a', 'b', 'c'])
      await t.eventStore.append(farmerStream(id), [farmerRegistered(id, '2026-03-01T10:00:00.000Z')], 'no_stream');
    await readWholeLog(t.eventStore, 3);
  });
  afterAll(() => t?.close());

  const farmerIds = async () =>
    (await t.db.selectFrom('farmers').select('farmer_id').orderBy('farmer_id').execute()).map((row) => row.farmer_id);

  it('commits neither rows nor checkpoint when applying the batch fails after writing', async () => {
    const batch = await t.eventStore.readAll('start', 10);
    const failingAfterWriting: Projection = {
      ...farmersProjection,
      apply: async (trx, events) => {
        await farmersProjection.apply(trx, events);
        throw new Error('disk full');
      },
    };
    await expect(applyBatch(t.db, failingAfterWriting, batch)).rejects.toThrow('disk full');
    expect(await farmerIds()).toEqual([]);
    expect(await readCheckpoint(t.db, 'farmers')).toBe('start');
  });

  it('commits the rows and the checkpoint at the last event together', async () => {
    const batch = await t.eventStore.readAll('start', 10);
    expect(await applyBatch(t.db, farmersProjection, batch)).toEqual(batch.at(-1)!.position);
    expect(await farmerIds()).toEqual(['a', 'b', 'c']);
    expect(await readCheckpoint(t.db, 'farmers')).toEqual(batch.at(-1)!.position);
  });

  it('applies one batch to several projections, each only past its own checkpoint, and moves them together', async () => {
    const batch = await t.eventStore.readAll('start', 10);
    const seen = new Map<string, string[]>();
    const recording = (name: string): Projection => ({
      name,
      tables: [],
      apply: async (_trx, events) => {
        seen.set(name, [...(seen.get(name) ?? []), ...events.map((event) => event.streamId)]);
      },
    });
    const checkpoints = new Map<string, GlobalPosition | AllStreamStart>([
      ['behind', 'start'],
      ['midway', batch[0]!.position],
      ['ahead', batch.at(-1)!.position],
    ]);
    const moved = await applyBatchToEach(
      t.db,
      ['behind', 'midway', 'ahead'].map(recording),
      (name) => checkpoints.get(name) ?? 'start',
      batch,
    );
    expect(moved).toEqual(['behind', 'midway']);
    expect(seen.get('behind')).toEqual(batch.map((event) => event.streamId));
    expect(seen.get('midway')).toEqual(batch.slice(1).map((event) => event.streamId));
    expect(seen.has('ahead')).toBe(false);
    for (const name of ['behind', 'midway']) expect(await readCheckpoint(t.db, name)).toEqual(batch.at(-1)!.position);
    expect(await readCheckpoint(t.db, 'ahead')).toBe('start');
  });
});

import { createKysely, createLogger, createPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateReadModels } from '../migrations/migrate-read-models';
import type { ReadModels } from '../read-models';
import { loadExposure } from './programme-exposure';

describe('a programme’s exposure, grouped and sorted', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;
  const zone = (source_id: string, location: string, policies: number, si: number, capacity: number | null) => ({
    programme_id: 'prog-1',
    source_id,
    location,
    policies,
    sum_insured_minor: si,
    premium_minor: si / 100,
    capacity_minor: capacity,
  });

  beforeAll(async () => {
    database = await createTestDatabase('read_store_programme_exposure');
    db = createKysely<ReadModels>(createPool(database.url, createLogger({ level: 'silent' })));
    await migrateReadModels(db);
    await db
      .insertInto('programmes')
      .values({
        programme_id: 'prog-1',
        organization_id: 'org-1',
        name: 'Long rains',
        currency: 'KES',
        is_default: false,
        aggregate_limit_minor: 1_000_000,
        zone_default_minor: 400_000,
        policies: 4,
        sum_insured_minor: 700_000,
        premium_minor: 7_000,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
        stream_revision: 5,
      })
      .execute();
    await db
      .insertInto('programme_zone_exposure')
      .values([
        zone('chirps', 'a', 2, 300_000, 400_000),
        zone('chirps', 'b', 1, 100_000, 1_000_000),
        zone('kmd', 'st-1', 2, 400_000, 500_000),
        zone('kmd', 'st-2', 1, 50_000, null),
      ])
      .execute();
    await db
      .insertInto('programme_zone_peril_exposure')
      .values([
        { ...zone('chirps', 'a', 2, 300_000, null), peril: 'drought' },
        { ...zone('chirps', 'a', 1, 200_000, 200_000), peril: 'flood' },
        { ...zone('kmd', 'st-1', 2, 400_000, null), peril: 'storm' },
      ])
      .execute();
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('by zone, most utilised first, unlimited zones last, with the programme’s totals', async () => {
    const page = await loadExposure(db, 'prog-1', {
      group_by: 'zone',
      sort: 'utilisation_desc',
      page: 1,
      page_size: 3,
    });
    expect(page?.totals).toEqual({
      policies: 4,
      sum_insured_minor: 700_000,
      premium_minor: 7_000,
      aggregate_limit_minor: 1_000_000,
    });
    expect(page?.total).toBe(4);
    expect(page?.items.map((row) => [row.source_id, row.location, row.utilisation])).toEqual([
      ['kmd', 'st-1', '0.800000'],
      ['chirps', 'a', '0.750000'],
      ['chirps', 'b', '0.100000'],
    ]);
    const last = await loadExposure(db, 'prog-1', {
      group_by: 'zone',
      sort: 'utilisation_desc',
      page: 2,
      page_size: 3,
    });
    expect(last?.items.map((row) => [row.location, row.capacity_minor, row.utilisation])).toEqual([
      ['st-2', null, null],
    ]);
    const past = await loadExposure(db, 'prog-1', {
      group_by: 'zone',
      sort: 'utilisation_desc',
      page: 9,
      page_size: 3,
    });
    expect(past).toMatchObject({ items: [], total: 4 });
  });

  it('by peril and by source, summed over their rows', async () => {
    const perils = await loadExposure(db, 'prog-1', {
      group_by: 'peril',
      sort: 'sum_insured_desc',
      page: 1,
      page_size: 20,
    });
    expect(perils?.items.map((row) => [row.peril, row.policies, row.sum_insured_minor, row.capacity_minor])).toEqual([
      ['storm', 2, 400_000, null],
      ['drought', 2, 300_000, null],
      ['flood', 1, 200_000, null],
    ]);
    const sources = await loadExposure(db, 'prog-1', {
      group_by: 'source',
      sort: 'policies_desc',
      page: 1,
      page_size: 20,
    });
    expect(sources?.items.map((row) => [row.source_id, row.policies, row.sum_insured_minor])).toEqual([
      ['chirps', 3, 400_000],
      ['kmd', 3, 450_000],
    ]);
    expect(
      await loadExposure(db, 'nope', { group_by: 'zone', sort: 'policies_desc', page: 1, page_size: 20 }),
    ).toBeUndefined();
  });
});

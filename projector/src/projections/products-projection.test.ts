import type { ProductEvent } from '@cropcover/contracts';
import { productStreamId, sheetDigest } from '@cropcover/domain';
import { KHARIF_DEFICIT_SHEET, RAIN_DAYS_SHEET } from '@cropcover/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyBatch } from '../projection-batch';
import { rebuildProjections } from '../rebuild';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projector-test-database';
import { newEvent } from '../testing/registry-events';
import { waitUntilVisible } from '../testing/visible-log';
import { productsProjection } from './products-projection';

const registered = (version: number, sheet: typeof KHARIF_DEFICIT_SHEET): ProductEvent => ({
  type: 'ProductVersionRegistered',
  data: {
    organization_id: 'org-1',
    product_id: 'kharif-deficit',
    version,
    sheet,
    digest: sheetDigest(sheet),
    registered_at: `2026-05-0${version}T09:00:00.000Z`,
  },
});

describe('products projection', () => {
  let t: ProjectorTestDatabase;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('projector_products');
    // Registered, versioned and retired in one batch: the retirement lands on the row registered before it.
    const events: ProductEvent[] = [
      registered(1, KHARIF_DEFICIT_SHEET),
      registered(2, RAIN_DAYS_SHEET),
      {
        type: 'ProductVersionRetired',
        data: {
          organization_id: 'org-1',
          product_id: 'kharif-deficit',
          version: 1,
          retired_at: '2026-05-03T09:00:00.000Z',
        },
      },
    ];
    const appended = await t.eventStore.append(
      productStreamId('org-1', 'kharif-deficit'),
      events.map(({ type, data }) => newEvent(type, data)),
      'no_stream',
    );
    await waitUntilVisible(t.eventStore, appended.position);
  });
  afterAll(() => t?.close());

  const project = async () => applyBatch(t.db, productsProjection, await t.eventStore.readAll('start', 100));
  const versions = () => t.db.selectFrom('product_versions').selectAll().orderBy('version').execute();

  it('records each version with its whole sheet, and its retirement', async () => {
    await project();
    expect(await versions()).toEqual([
      {
        organization_id: 'org-1',
        product_id: 'kharif-deficit',
        version: 1,
        digest: sheetDigest(KHARIF_DEFICIT_SHEET),
        status: 'retired',
        name: KHARIF_DEFICIT_SHEET.name,
        sheet: KHARIF_DEFICIT_SHEET,
        registered_at: new Date('2026-05-01T09:00:00.000Z'),
        retired_at: new Date('2026-05-03T09:00:00.000Z'),
      },
      expect.objectContaining({ version: 2, status: 'active', sheet: RAIN_DAYS_SHEET, retired_at: null }),
    ]);
  });

  it('changes nothing when the log is applied again, and rebuilds to the same rows', async () => {
    const before = await versions();
    await project();
    expect(await versions()).toEqual(before);
    await rebuildProjections({ eventStore: t.eventStore, db: t.db, projections: [productsProjection] });
    expect(await versions()).toEqual(before);
  });
});

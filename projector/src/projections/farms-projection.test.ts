import type { AccessPurpose } from '@cropcover/contracts';
import { farmerStream, farmStream } from '@cropcover/domain';
import { calendarDateOf } from '@cropcover/read-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyBatch } from '../projection-batch';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projector-test-database';
import {
  farmAccessGranted,
  farmAccessRevoked,
  farmAttributes,
  farmDeactivated,
  farmerRegistered,
  farmLinkedToOrganization,
  farmRegistered,
  farmUpdated,
  fieldRegistered,
} from '../testing/registry-events';
import { waitUntilVisible } from '../testing/visible-log';
import { farmsProjection } from './farms-projection';

describe('farms projection', () => {
  let t: ProjectorTestDatabase;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('projector_farms');
    await t.eventStore.append(farmerStream('f1'), [farmerRegistered('f1', '2026-03-01T09:00:00.000Z')], 'no_stream');
    await t.eventStore.append(
      farmStream('farm1'),
      [
        farmRegistered('farm1', 'f1', '2026-03-01T10:00:00.000Z'),
        farmUpdated({
          farm_id: 'farm1',
          changes: { name: 'Shamba Kuu', common_grown_crops: null, has_irrigation: true, irrigation_type: 'drip' },
          updated_at: '2026-03-02T10:00:00.000Z',
        }),
        fieldRegistered({
          farm_id: 'farm1',
          field_id: 'north',
          name: 'North plot',
          area_ha: 2.5,
          location: { lat: -1.2921, lon: 36.8219 },
          crop_type: 'maize',
          registered_at: '2026-03-03T10:00:00.000Z',
        }),
        fieldRegistered({
          farm_id: 'farm1',
          field_id: 'south',
          name: 'South plot',
          area_ha: 0.75,
          location: { lat: -1.3, lon: 36.8 },
          crop_type: null,
          registered_at: '2026-03-03T11:00:00.000Z',
        }),
        farmLinkedToOrganization({
          farm_id: 'farm1',
          organization_id: 'org-insurer',
          relationship: 'insurer',
          linked_at: '2026-03-03T12:00:00.000Z',
        }),
        farmDeactivated({ farm_id: 'farm1', deactivated_at: '2026-03-04T10:00:00.000Z' }),
      ],
      'no_stream',
    );
    const grant = (organization_id: string, purposes: AccessPurpose[], expires_on: string | null, at: string) =>
      farmAccessGranted({
        farm_id: 'farm2',
        organization_id,
        purposes,
        expires_on,
        origin: 'owner',
        granted_by: 'owner-2',
        granted_at: at,
      });
    const last = await t.eventStore.append(
      farmStream('farm2'),
      [
        farmRegistered('farm2', 'f1', '2026-03-05T10:00:00.000Z', farmAttributes({ name: 'Second', country: null })),
        grant('org-coop', ['insurance'], null, '2026-03-05T11:00:00.000Z'),
        grant('org-lender', ['credit'], null, '2026-03-05T12:00:00.000Z'),
        grant('org-coop', ['credit', 'insurance'], '2026-12-31', '2026-03-05T13:00:00.000Z'),
        farmAccessRevoked({
          farm_id: 'farm2',
          organization_id: 'org-lender',
          revoked_by: 'owner-2',
          revoked_at: '2026-03-05T14:00:00.000Z',
        }),
      ],
      'no_stream',
    );
    await waitUntilVisible(t.eventStore, last.position);
  });
  afterAll(() => t?.close());

  const project = async () => applyBatch(t.db, farmsProjection, await t.eventStore.readAll('start', 100));
  const farms = () => t.db.selectFrom('farms').selectAll().orderBy('farm_id').execute();
  const fields = () => t.db.selectFrom('farm_fields').selectAll().orderBy('farm_id').orderBy('field_id').execute();
  const organizations = () =>
    t.db
      .selectFrom('farm_organizations')
      .select((eb) => [
        'farm_id',
        'organization_id',
        'relationship',
        'linked_at',
        'purposes',
        'origin',
        calendarDateOf(eb.ref('expires_on')).as('expires_on'),
      ])
      .orderBy('farm_id')
      .orderBy('organization_id')
      .execute();

  it('registers and updates farms, keeping a deactivated farm as an inactive row', async () => {
    await project();
    expect(await farms()).toEqual([
      {
        farm_id: 'farm1',
        platform_farm_id: 'PM-FARM1',
        owner_farmer_id: 'f1',
        owner_subject: 'subject-f1',
        registered_by_org_id: null,
        name: 'Shamba Kuu',
        has_irrigation: true,
        farm_type: 'smallholder',
        farm_size: 'small',
        tenure_type: 'owned',
        irrigation_type: 'drip',
        water_source: 'rainfed',
        common_grown_crops: null,
        soil_type: 'loamy',
        currency: 'KES',
        location: 'Nakuru',
        country: 'KE',
        is_active: false,
        created_at: new Date('2026-03-01T10:00:00.000Z'),
        updated_at: new Date('2026-03-04T10:00:00.000Z'),
        stream_revision: 5,
      },
      expect.objectContaining({
        farm_id: 'farm2',
        name: 'Second',
        common_grown_crops: ['maize', 'beans'],
        country: null,
        is_active: true,
        updated_at: new Date('2026-03-05T10:00:00.000Z'),
        stream_revision: 4,
      }),
    ]);
  });

  it('records fields with their location', async () => {
    expect(await fields()).toEqual([
      {
        farm_id: 'farm1',
        field_id: 'north',
        name: 'North plot',
        area_ha: 2.5,
        lat: -1.2921,
        lon: 36.8219,
        crop_type: 'maize',
        created_at: new Date('2026-03-03T10:00:00.000Z'),
      },
      {
        farm_id: 'farm1',
        field_id: 'south',
        name: 'South plot',
        area_ha: 0.75,
        lat: -1.3,
        lon: 36.8,
        crop_type: null,
        created_at: new Date('2026-03-03T11:00:00.000Z'),
      },
    ]);
  });

  it('keeps each unrevoked grant as last given; a link made by issuing is an insurance grant', async () => {
    expect(await organizations()).toEqual([
      {
        farm_id: 'farm1',
        organization_id: 'org-insurer',
        relationship: 'insurance',
        linked_at: new Date('2026-03-03T12:00:00.000Z'),
        purposes: ['insurance'],
        origin: 'policy_issued',
        expires_on: null,
      },
      {
        farm_id: 'farm2',
        organization_id: 'org-coop',
        relationship: 'credit',
        linked_at: new Date('2026-03-05T13:00:00.000Z'),
        purposes: ['credit', 'insurance'],
        origin: 'owner',
        expires_on: '2026-12-31',
      },
    ]);
  });

  const everything = async () => ({
    farms: await farms(),
    fields: await fields(),
    organizations: await organizations(),
  });

  it('gives the same farms, fields and links when every event comes in a batch of its own', async () => {
    const together = await everything();
    for (const table of farmsProjection.tables) await t.db.deleteFrom(table).execute();
    for (const event of await t.eventStore.readAll('start', 100)) await applyBatch(t.db, farmsProjection, [event]);
    expect(await everything()).toEqual(together);
  });

  it('leaves farms, fields and links as they are when the same events are applied again', async () => {
    const before = await everything();
    await project();
    expect(await everything()).toEqual(before);
  });

  it('does not reactivate or rename a farm when an earlier event comes again', async () => {
    const [registered, updated] = await t.eventStore.readStream(farmStream('farm1'));
    await applyBatch(t.db, farmsProjection, [registered!, updated!]);
    const farm1 = await t.db.selectFrom('farms').selectAll().where('farm_id', '=', 'farm1').executeTakeFirstOrThrow();
    expect(farm1).toMatchObject({ is_active: false, stream_revision: 5 });
  });

  it('keeps the later change when a batch carries an earlier event after it', async () => {
    const rename = (name: string, at: string) => farmUpdated({ farm_id: 'farm3', changes: { name }, updated_at: at });
    await t.eventStore.append(
      farmStream('farm3'),
      [
        farmRegistered('farm3', 'f1', '2026-03-06T10:00:00.000Z'),
        rename('First', '2026-03-07T10:00:00.000Z'),
        rename('Second', '2026-03-08T10:00:00.000Z'),
      ],
      'no_stream',
    );
    const [registered, first, second] = await t.eventStore.readStream(farmStream('farm3'));
    await applyBatch(t.db, farmsProjection, [registered!]);
    await applyBatch(t.db, farmsProjection, [second!, first!]);
    const farm3 = await t.db.selectFrom('farms').selectAll().where('farm_id', '=', 'farm3').executeTakeFirstOrThrow();
    expect(farm3).toMatchObject({ name: 'Second', stream_revision: 2 });
    expect(farm3.updated_at).toEqual(new Date('2026-03-08T10:00:00.000Z'));
  });

  it('ignores events of other aggregates', async () => {
    const farmerEvents = await t.eventStore.readStream(farmerStream('f1'));
    await applyBatch(t.db, farmsProjection, farmerEvents);
    expect((await farms()).map((farm) => farm.farm_id)).toEqual(['farm1', 'farm2', 'farm3']);
  });
});

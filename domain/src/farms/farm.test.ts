import type { FarmAttributes, FarmEvent } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../actor';
import { deciderSpec } from '../testing/decider-spec';
import { deactivateFarm } from './deactivate-farm';
import { evolveFarm, initialFarm } from './farm';
import { registerFarm } from './register-farm';
import { registerField } from './register-field';
import { updateFarm } from './update-farm';

const created = '2026-03-01T10:00:00.000Z';
const later = new Date('2026-03-02T10:00:00.000Z');
const owner: Actor = { subject: 'owner', organizationId: null, isAdmin: false };
const stranger: Actor = { subject: 'stranger', organizationId: 'org-x', isAdmin: false };
const admin: Actor = { subject: 'root', organizationId: null, isAdmin: true };
const attributes: FarmAttributes = {
  name: 'Shamba',
  has_irrigation: false,
  farm_type: 'smallholder',
  farm_size: null,
  tenure_type: null,
  irrigation_type: null,
  water_source: null,
  common_grown_crops: ['maize'],
  soil_type: null,
  currency: 'KES',
  location: null,
  country: 'KE',
};
const farmRegistered: FarmEvent = {
  type: 'FarmRegistered',
  data: {
    farm_id: 'f1',
    platform_farm_id: 'PM-4N8R2WJC',
    owner_farmer_id: 'farmer-1',
    owner_subject: 'owner',
    registered_by_org_id: null,
    ...attributes,
    created_at: created,
  },
};
const deactivated: FarmEvent = {
  type: 'FarmDeactivated',
  data: { farm_id: 'f1', deactivated_at: later.toISOString() },
};

describe('registering a farm', () => {
  const spec = deciderSpec(initialFarm, evolveFarm, registerFarm);
  const command = {
    farmId: 'f1',
    platformFarmId: 'PM-4N8R2WJC',
    ownerFarmerId: 'farmer-1',
    ownerSubject: 'owner',
    attributes,
    now: new Date(created),
  };
  it('records the farm without an organization', () => spec.given([]).when(command).thenEvents([farmRegistered]));
  it('refuses an id twice', () => spec.given([farmRegistered]).when(command).thenRefuses('conflict', 'farm_exists'));
});

describe('updating a farm', () => {
  const spec = deciderSpec(initialFarm, evolveFarm, updateFarm);
  const rename = {
    actor: owner,
    changes: { name: 'Shamba Kuu' },
    expectedUpdatedAt: undefined,
    ifMatchUpdatedAt: undefined,
    now: later,
  };

  it('records the changed fields with a new updated_at', () =>
    spec
      .given([farmRegistered])
      .when(rename)
      .thenEvents([
        {
          type: 'FarmUpdated',
          data: {
            farm_id: 'f1',
            owner_farmer_id: 'farmer-1',
            changes: { name: 'Shamba Kuu' },
            updated_at: later.toISOString(),
          },
        },
      ]));

  it('clears an optional field with null and leaves omitted ones', () =>
    spec
      .given([farmRegistered])
      .when({ ...rename, changes: { common_grown_crops: null } })
      .thenEvents([
        {
          type: 'FarmUpdated',
          data: {
            farm_id: 'f1',
            owner_farmer_id: 'farmer-1',
            changes: { common_grown_crops: null },
            updated_at: later.toISOString(),
          },
        },
      ]));

  it('accepts the current updated_at and refuses a stale one: 409 in the body, 412 as If-Match', () => {
    spec
      .given([farmRegistered])
      .when({ ...rename, expectedUpdatedAt: '2026-03-01T10:00:00Z', ifMatchUpdatedAt: '2026-03-01T10:00:00Z' })
      .thenEvents([
        {
          type: 'FarmUpdated',
          data: {
            farm_id: 'f1',
            owner_farmer_id: 'farmer-1',
            changes: { name: 'Shamba Kuu' },
            updated_at: later.toISOString(),
          },
        },
      ]);
    spec
      .given([farmRegistered])
      .when({ ...rename, expectedUpdatedAt: '2026-02-01T10:00:00Z' })
      .thenRefuses('conflict', 'version_conflict');
    spec
      .given([farmRegistered])
      .when({ ...rename, ifMatchUpdatedAt: '2026-02-01T10:00:00Z' })
      .thenRefuses('precondition_failed', 'precondition_failed');
  });

  it('moves updated_at on even when the clock has not', () => {
    const [event] = updateFarm({ ...rename, now: new Date(created) }, evolveFarm(initialFarm, farmRegistered));
    expect(event?.type === 'FarmUpdated' && event.data.updated_at).toBe('2026-03-01T10:00:00.001Z');
  });

  it('records nothing when nothing changes', () =>
    spec
      .given([farmRegistered])
      .when({ ...rename, changes: { name: 'Shamba' } })
      .thenEvents([]));

  it('lets an admin update, hides the farm from strangers, and 404s once deactivated', () => {
    spec
      .given([farmRegistered])
      .when({ ...rename, actor: admin })
      .thenEvents([
        {
          type: 'FarmUpdated',
          data: {
            farm_id: 'f1',
            owner_farmer_id: 'farmer-1',
            changes: { name: 'Shamba Kuu' },
            updated_at: later.toISOString(),
          },
        },
      ]);
    spec
      .given([farmRegistered])
      .when({ ...rename, actor: stranger })
      .thenRefuses('not_found', 'not_found');
    spec.given([farmRegistered, deactivated]).when(rename).thenRefuses('not_found', 'not_found');
    spec.given([]).when(rename).thenRefuses('not_found', 'not_found');
  });
});

describe('deactivating a farm', () => {
  const spec = deciderSpec(initialFarm, evolveFarm, deactivateFarm);
  it('soft-deletes for the owner', () =>
    spec.given([farmRegistered]).when({ actor: owner, now: later }).thenEvents([deactivated]));
  it('is not found the second time', () =>
    spec.given([farmRegistered, deactivated]).when({ actor: owner, now: later }).thenRefuses('not_found', 'not_found'));
  it('is not found for a stranger', () =>
    spec.given([farmRegistered]).when({ actor: stranger, now: later }).thenRefuses('not_found', 'not_found'));
});

describe('registering a field', () => {
  const spec = deciderSpec(initialFarm, evolveFarm, registerField);
  const command = {
    actor: owner,
    fieldId: 'north',
    name: 'North plot',
    areaHa: 2.5,
    location: { lat: -1.29, lon: 36.82 },
    cropType: 'maize',
    now: later,
    keyed: false,
  };
  const fieldRegistered: FarmEvent = {
    type: 'FieldRegistered',
    data: {
      farm_id: 'f1',
      field_id: 'north',
      name: 'North plot',
      area_ha: 2.5,
      location: { lat: -1.29, lon: 36.82 },
      crop_type: 'maize',
      registered_at: later.toISOString(),
    },
  };
  it('records the field', () => spec.given([farmRegistered]).when(command).thenEvents([fieldRegistered]));
  it('refuses the same field id twice', () =>
    spec.given([farmRegistered, fieldRegistered]).when(command).thenRefuses('conflict', 'field_exists'));
  it('takes a keyed retry of the same registration as done: its first run recorded it', () =>
    spec
      .given([farmRegistered, fieldRegistered])
      .when({ ...command, keyed: true })
      .thenEvents([]));
  it('refuses a keyed registration of another field under an id already taken', () =>
    spec
      .given([farmRegistered, fieldRegistered])
      .when({ ...command, keyed: true, areaHa: 3 })
      .thenRefuses('conflict', 'field_exists'));
  it('refuses on an inactive farm', () =>
    spec.given([farmRegistered, deactivated]).when(command).thenRefuses('not_found', 'not_found'));
});

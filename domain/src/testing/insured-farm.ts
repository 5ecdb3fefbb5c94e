import type { FarmEvent } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { evolveFarm, type Farm, initialFarm } from '../farms/farm';

// A registered farm with one field, as the registry would hand it to quote and issue in tests.

export const insurer: Actor = { subject: 'underwriter', organizationId: 'org-1', isAdmin: false };
export const otherInsurer: Actor = { subject: 'rival', organizationId: 'org-2', isAdmin: false };

/** A farm's registration and its one field (registered on 1 and 2 January of `year`), as the registry
 *  records them. */
export const insuredFarmEvents = ({
  farmId = 'farm-1',
  fieldId = 'north',
  year = 2026,
}: {
  farmId?: string;
  fieldId?: string;
  year?: number;
} = {}): [FarmEvent, FarmEvent] => [
  {
    type: 'FarmRegistered',
    data: {
      farm_id: farmId,
      platform_farm_id: 'PM-4N8R2WJC',
      owner_farmer_id: 'farmer-1',
      owner_subject: 'owner',
      registered_by_org_id: null,
      name: 'Shamba',
      has_irrigation: false,
      farm_type: null,
      farm_size: null,
      tenure_type: null,
      irrigation_type: null,
      water_source: null,
      common_grown_crops: null,
      soil_type: null,
      currency: 'KES',
      location: null,
      country: 'KE',
      created_at: `${year}-01-01T00:00:00.000Z`,
    },
  },
  {
    type: 'FieldRegistered',
    data: {
      farm_id: farmId,
      field_id: fieldId,
      name: 'North plot',
      area_ha: 2.5,
      location: { lat: -1.29, lon: 36.82 },
      crop_type: 'maize',
      registered_at: `${year}-01-02T00:00:00.000Z`,
    },
  },
];

const [registered, field] = insuredFarmEvents();

const farmFrom = (events: readonly FarmEvent[]): Farm => events.reduce(evolveFarm, initialFarm);

export const insuredFarm: Farm = farmFrom([registered, field]);
export const irrigatedFarm: Farm = farmFrom([
  registered,
  field,
  {
    type: 'FarmUpdated',
    data: { farm_id: 'farm-1', changes: { has_irrigation: true }, updated_at: '2026-01-03T00:00:00.000Z' },
  },
]);
export const inactiveFarm: Farm = farmFrom([
  registered,
  { type: 'FarmDeactivated', data: { farm_id: 'farm-1', deactivated_at: '2026-01-03T00:00:00.000Z' } },
]);

import type { FarmAttributes, FarmEvent, FarmLinkedOrganization } from '@cropcover/contracts';
import { type Aggregate, streamName } from '../aggregate';

export interface FarmField {
  readonly fieldId: string;
  readonly name: string;
  readonly areaHa: number;
  readonly location: { readonly lat: number; readonly lon: number };
  readonly cropType: string | null;
  readonly registeredAt: string;
}

export type Farm =
  | { readonly status: 'unregistered' }
  | {
      readonly status: 'registered';
      readonly farmId: string;
      readonly platformFarmId: string;
      readonly ownerFarmerId: string;
      readonly ownerSubject: string;
      readonly registeredByOrgId: string | null;
      readonly attributes: FarmAttributes;
      readonly isActive: boolean;
      readonly createdAt: string;
      readonly updatedAt: string;
      readonly fields: readonly FarmField[];
      readonly organizations: readonly FarmLinkedOrganization[];
    };

export type RegisteredFarm = Extract<Farm, { status: 'registered' }>;

export const initialFarm: Farm = { status: 'unregistered' };

export const evolveFarm = (state: Farm, event: FarmEvent): Farm => {
  if (event.type === 'FarmRegistered') {
    const {
      farm_id,
      platform_farm_id,
      owner_farmer_id,
      owner_subject,
      registered_by_org_id,
      created_at,
      ...attributes
    } = event.data;
    return {
      status: 'registered',
      farmId: farm_id,
      platformFarmId: platform_farm_id,
      ownerFarmerId: owner_farmer_id,
      ownerSubject: owner_subject,
      registeredByOrgId: registered_by_org_id,
      attributes,
      isActive: true,
      createdAt: created_at,
      updatedAt: created_at,
      fields: [],
      organizations: [],
    };
  }
  if (state.status !== 'registered') return state;
  switch (event.type) {
    case 'FarmUpdated':
      return { ...state, attributes: { ...state.attributes, ...event.data.changes }, updatedAt: event.data.updated_at };
    case 'FarmDeactivated':
      return { ...state, isActive: false, updatedAt: event.data.deactivated_at };
    case 'FieldRegistered': {
      const { field_id, name, area_ha, location, crop_type, registered_at } = event.data;
      const field = {
        fieldId: field_id,
        name,
        areaHa: area_ha,
        location,
        cropType: crop_type,
        registeredAt: registered_at,
      };
      return { ...state, fields: [...state.fields, field] };
    }
    case 'FarmLinkedToOrganization': {
      const { organization_id, relationship, linked_at } = event.data;
      if (state.organizations.some((link) => link.organization_id === organization_id)) return state;
      return { ...state, organizations: [...state.organizations, { organization_id, relationship, linked_at }] };
    }
  }
};

/** `farm-<farm_id>`: a farm, its fields and the organizations linked to it. */
export const farmStream = streamName('farm');

export const farmAggregate: Aggregate<Farm, FarmEvent> = { initial: initialFarm, evolve: evolveFarm };

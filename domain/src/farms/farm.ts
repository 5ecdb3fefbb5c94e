import type { AccessOrigin, AccessPurpose, ConsentEvidence, FarmAttributes, FarmEvent } from '@cropcover/contracts';
import { type Aggregate, streamName } from '../aggregate';

export interface FarmField {
  readonly fieldId: string;
  readonly name: string;
  readonly areaHa: number;
  readonly location: { readonly lat: number; readonly lon: number };
  readonly cropType: string | null;
  readonly registeredAt: string;
}

/** An organization's access to the farm, as the farmer (or an admin) granted it; live until the end of
 *  `expires_on` (UTC), or until revoked, which removes it. */
export interface FarmGrant {
  readonly organization_id: string;
  readonly purposes: readonly AccessPurpose[];
  readonly expires_on: string | null;
  readonly origin: AccessOrigin;
  readonly granted_at: string;
  /** How the farmer consented, for a grant a field agent's enrolment made. */
  readonly consent?: ConsentEvidence;
}

export type Farm =
  | { readonly status: 'unregistered' }
  | {
      readonly status: 'registered';
      readonly farmId: string;
      readonly platformFarmId: string;
      readonly ownerFarmerId: string;
      /** The owner's login; null while a farmer enrolled by a field agent has not claimed the profile. */
      readonly ownerSubject: string | null;
      readonly registeredByOrgId: string | null;
      readonly attributes: FarmAttributes;
      readonly isActive: boolean;
      readonly createdAt: string;
      readonly updatedAt: string;
      readonly fields: readonly FarmField[];
      readonly organizations: readonly FarmGrant[];
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
      // Made by issuing a policy before grants existed: an insurance grant, its origin kept visible.
      const { organization_id, linked_at } = event.data;
      if (state.organizations.some((grant) => grant.organization_id === organization_id)) return state;
      const grant: FarmGrant = {
        organization_id,
        purposes: ['insurance'],
        expires_on: null,
        origin: 'policy_issued',
        granted_at: linked_at,
      };
      return { ...state, organizations: [...state.organizations, grant] };
    }
    case 'FarmAccessGranted': {
      const { organization_id, purposes, expires_on, origin, granted_at, consent } = event.data;
      const others = state.organizations.filter((grant) => grant.organization_id !== organization_id);
      const grant: FarmGrant = {
        organization_id,
        purposes,
        expires_on,
        origin,
        granted_at,
        ...(consent && { consent }),
      };
      return { ...state, organizations: [...others, grant] };
    }
    case 'FarmClaimed':
      return { ...state, ownerSubject: event.data.owner_subject };
    case 'FarmAccessRevoked':
      return {
        ...state,
        organizations: state.organizations.filter((grant) => grant.organization_id !== event.data.organization_id),
      };
  }
};

/** `farm-<farm_id>`: a farm, its fields and the organizations granted access to it. */
export const farmStream = streamName('farm');

export const farmAggregate: Aggregate<Farm, FarmEvent> = { initial: initialFarm, evolve: evolveFarm };

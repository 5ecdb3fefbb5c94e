import { randomUUID } from 'node:crypto';
import type {
  FarmAccessGranted,
  FarmAccessRevoked,
  FarmAttributes,
  FarmDeactivated,
  FarmerProfileUpdated,
  FarmerRegistered,
  FarmLinkedToOrganization,
  FarmRegistered,
  FarmUpdated,
  FieldRegistered,
  ShareableIdClaimed,
  z,
} from '@cropcover/contracts';
import type { NewEvent } from '@cropcover/eventstore';

// Registry events as the command side appends them, for tests and the benchmark to feed the projector.

export const newEvent = (type: string, data: unknown, occurredAt = new Date().toISOString()): NewEvent => ({
  type,
  data,
  metadata: {
    event_id: randomUUID(),
    occurred_at: occurredAt,
    actor: 'projector-test',
    organization_id: null,
    correlation_id: randomUUID(),
    causation_id: null,
    schema_version: 1,
    platform_version: '0.0.0-test',
  },
});

export const shareableIdClaimed = (data: z.infer<typeof ShareableIdClaimed>): NewEvent =>
  newEvent('ShareableIdClaimed', data);

export const farmerRegistered = (
  farmerId: string,
  at: string,
  overrides: Partial<z.infer<typeof FarmerRegistered>> = {},
): NewEvent =>
  newEvent('FarmerRegistered', {
    farmer_id: farmerId,
    subject: `subject-${farmerId}`,
    platform_farmer_id: `PF-${farmerId.toUpperCase()}`,
    first_name: 'Wanjiru',
    last_name: 'Kamau',
    phone_number: '+254712345678',
    language: 'sw',
    upload_channel: 'app',
    whatsapp_number: null,
    data_consent_given: false,
    onboarding_status: 'pending',
    source: 'profile',
    registered_at: at,
    ...overrides,
  } satisfies z.infer<typeof FarmerRegistered>);

export const farmerProfileUpdated = (data: z.infer<typeof FarmerProfileUpdated>): NewEvent =>
  newEvent('FarmerProfileUpdated', data);

export const farmAttributes = (overrides: Partial<FarmAttributes> = {}): FarmAttributes => ({
  name: 'Shamba',
  has_irrigation: false,
  farm_type: 'smallholder',
  farm_size: 'small',
  tenure_type: 'owned',
  irrigation_type: null,
  water_source: 'rainfed',
  common_grown_crops: ['maize', 'beans'],
  soil_type: 'loamy',
  currency: 'KES',
  location: 'Nakuru',
  country: 'KE',
  ...overrides,
});

export const farmRegistered = (
  farmId: string,
  ownerFarmerId: string,
  at: string,
  attributes: FarmAttributes = farmAttributes(),
): NewEvent =>
  newEvent('FarmRegistered', {
    farm_id: farmId,
    platform_farm_id: `PM-${farmId.toUpperCase()}`,
    owner_farmer_id: ownerFarmerId,
    owner_subject: `subject-${ownerFarmerId}`,
    registered_by_org_id: null,
    ...attributes,
    created_at: at,
  } satisfies z.infer<typeof FarmRegistered>);

export const farmUpdated = (data: z.infer<typeof FarmUpdated>): NewEvent => newEvent('FarmUpdated', data);

export const farmDeactivated = (data: z.infer<typeof FarmDeactivated>): NewEvent => newEvent('FarmDeactivated', data);

export const fieldRegistered = (data: z.infer<typeof FieldRegistered>): NewEvent => newEvent('FieldRegistered', data);

export const farmLinkedToOrganization = (data: z.infer<typeof FarmLinkedToOrganization>): NewEvent =>
  newEvent('FarmLinkedToOrganization', data);

export const farmAccessGranted = (data: z.infer<typeof FarmAccessGranted>): NewEvent =>
  newEvent('FarmAccessGranted', data);

export const farmAccessRevoked = (data: z.infer<typeof FarmAccessRevoked>): NewEvent =>
  newEvent('FarmAccessRevoked', data);

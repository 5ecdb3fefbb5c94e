import { DateTime } from '../common';
import { z } from '../zod';
import { FarmAccessGranted, FarmAccessRevoked } from './farm-access';
import { FarmSize, FarmType, IrrigationType, SoilType, TenureType, WaterSource } from './farm-attributes';
import { OnboardingStatus, UploadChannel } from './farmer';

// Event payloads of the farm registry as stored in the log and published downstream. They are
// forever: change a shape only by adding a new schema_version and an upcaster for the old one.

const FarmerProfileFields = z.object({
  first_name: z.string(),
  last_name: z.string(),
  phone_number: z.string().nullable(),
  language: z.string().nullable(),
  upload_channel: UploadChannel.nullable(),
  whatsapp_number: z.string().nullable(),
  data_consent_given: z.boolean(),
});
export type FarmerProfileFields = z.infer<typeof FarmerProfileFields>;

export const FarmerRegistered = FarmerProfileFields.extend({
  farmer_id: z.string(),
  subject: z.string(),
  platform_farmer_id: z.string(),
  onboarding_status: OnboardingStatus,
  /** `token_claims` when the profile was made from the token on the user's first farm. */
  source: z.enum(['profile', 'token_claims']),
  registered_at: DateTime,
}).openapi('FarmerRegistered');

/** A field agent enrolled the farmer for its organization (SPEC §6 assisted onboarding): a profile held for
 *  the farmer, with no login of their own until they claim it. The personal fields are `first_name`,
 *  `last_name`, `phone_number` and `whatsapp_number`, as in `FarmerRegistered`. */
export const FarmerEnrolled = FarmerProfileFields.extend({
  farmer_id: z.string(),
  platform_farmer_id: z.string(),
  onboarding_status: OnboardingStatus,
  registered_by_org_id: z.string(),
  enrolled_by: z.string().openapi({ description: "the field agent's subject" }),
  /** The farm enrolled with the farmer: its owner becomes the farmer's login when the profile is claimed. */
  farm_id: z.string(),
  enrolled_at: DateTime,
}).openapi('FarmerEnrolled');

/** The farmer claimed the profile a field agent enrolled, from their own login (the phone matched). */
export const FarmerProfileClaimed = z
  .object({ farmer_id: z.string(), subject: z.string(), claimed_at: DateTime })
  .openapi('FarmerProfileClaimed');

/** On the stream a login's own profile would have (`farmer-<id for the subject>`): this login holds the
 *  enrolled profile `claimed_farmer_id` instead, so it can never make a second one. */
export const FarmerLoginLinked = z
  .object({ farmer_id: z.string(), subject: z.string(), claimed_farmer_id: z.string(), linked_at: DateTime })
  .openapi('FarmerLoginLinked');

export const FarmerProfileUpdated = z
  .object({
    farmer_id: z.string(),
    changes: FarmerProfileFields.partial(),
    onboarding_status: OnboardingStatus,
    updated_at: DateTime,
  })
  .openapi('FarmerProfileUpdated');

/** The farmer asked to be erased (SPEC §6): their data key is destroyed, so every sealed personal field
 *  of their events reads as erased from then on. */
export const FarmerErased = z
  .object({ farmer_id: z.string(), erased_at: DateTime, erased_by: z.enum(['farmer', 'admin']) })
  .openapi('FarmerErased');

/** Claims a shareable code (PF-…, PM-…) for good: the stream `shareable-id-<code>` exists once. */
export const ShareableIdClaimed = z.object({ code: z.string(), claimed_by: z.string() }).openapi('ShareableIdClaimed');

export const FarmAttributes = z.object({
  name: z.string(),
  has_irrigation: z.boolean(),
  farm_type: FarmType.nullable(),
  farm_size: FarmSize.nullable(),
  tenure_type: TenureType.nullable(),
  irrigation_type: IrrigationType.nullable(),
  water_source: WaterSource.nullable(),
  common_grown_crops: z.array(z.string()).nullable(),
  soil_type: SoilType.nullable(),
  currency: z.string().nullable(),
  location: z.string().nullable(),
  country: z.string().nullable(),
});
export type FarmAttributes = z.infer<typeof FarmAttributes>;

export const FarmRegistered = FarmAttributes.extend({
  farm_id: z.string(),
  platform_farm_id: z.string(),
  owner_farmer_id: z.string(),
  /** null while the owner has no login of their own (enrolled by a field agent, not yet claimed). */
  owner_subject: z.string().nullable(),
  registered_by_org_id: z.string().nullable(),
  created_at: DateTime,
}).openapi('FarmRegistered');

export const FarmUpdated = z
  .object({
    farm_id: z.string(),
    /** Whose key seals the changed name and location; absent on events stored before sealing. */
    owner_farmer_id: z.string().optional(),
    changes: FarmAttributes.partial(),
    updated_at: DateTime,
  })
  .openapi('FarmUpdated');

export const FarmDeactivated = z.object({ farm_id: z.string(), deactivated_at: DateTime }).openapi('FarmDeactivated');

export const FieldRegistered = z
  .object({
    farm_id: z.string(),
    field_id: z.string(),
    name: z.string(),
    area_ha: z.number(),
    location: z.object({ lat: z.number(), lon: z.number() }),
    crop_type: z.string().nullable(),
    registered_at: DateTime,
  })
  .openapi('FieldRegistered');

/** The farmer claimed the enrolled profile owning this farm: from now on their login manages it. */
export const FarmClaimed = z
  .object({ farm_id: z.string(), owner_farmer_id: z.string(), owner_subject: z.string(), claimed_at: DateTime })
  .openapi('FarmClaimed');

/** Before access grants (issue 25): an insurer's organization issued a policy on the farm, which then
 *  let it read the farm. No longer appended; read as an `insurance` grant of origin `policy_issued`. */
export const FarmLinkedToOrganization = z
  .object({
    farm_id: z.string(),
    organization_id: z.string(),
    relationship: z.enum(['insurer']),
    linked_at: DateTime,
  })
  .openapi('FarmLinkedToOrganization');

export const FarmerEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('FarmerRegistered'), data: FarmerRegistered }),
  z.object({ type: z.literal('FarmerProfileUpdated'), data: FarmerProfileUpdated }),
  z.object({ type: z.literal('FarmerEnrolled'), data: FarmerEnrolled }),
  z.object({ type: z.literal('FarmerProfileClaimed'), data: FarmerProfileClaimed }),
  z.object({ type: z.literal('FarmerLoginLinked'), data: FarmerLoginLinked }),
  z.object({ type: z.literal('FarmerErased'), data: FarmerErased }),
]);
export type FarmerEvent = z.infer<typeof FarmerEvent>;

export const FarmEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('FarmRegistered'), data: FarmRegistered }),
  z.object({ type: z.literal('FarmUpdated'), data: FarmUpdated }),
  z.object({ type: z.literal('FarmDeactivated'), data: FarmDeactivated }),
  z.object({ type: z.literal('FieldRegistered'), data: FieldRegistered }),
  z.object({ type: z.literal('FarmLinkedToOrganization'), data: FarmLinkedToOrganization }),
  z.object({ type: z.literal('FarmAccessGranted'), data: FarmAccessGranted }),
  z.object({ type: z.literal('FarmAccessRevoked'), data: FarmAccessRevoked }),
  z.object({ type: z.literal('FarmClaimed'), data: FarmClaimed }),
]);
export type FarmEvent = z.infer<typeof FarmEvent>;

export const ShareableIdEvent = z.object({ type: z.literal('ShareableIdClaimed'), data: ShareableIdClaimed });
export type ShareableIdEvent = z.infer<typeof ShareableIdEvent>;

export type RegistryEvent = FarmerEvent | FarmEvent | ShareableIdEvent;

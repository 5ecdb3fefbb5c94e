import { DateTime, TrimmedText } from '../common';
import { CurrencyCode } from '../currency';
import { CalendarDate } from '../insurance/calendar-date';
import { queryFlag } from '../insurance/pagination';
import { z } from '../zod';
import { AccessPurpose } from './farm-access';
import { FarmSize, FarmType, IrrigationType, SoilType, TenureType, WaterSource } from './farm-attributes';
import { FarmerProfile } from './farmer';

const CropName = TrimmedText(100);

const optionalFarmAttributes = {
  farm_type: FarmType.nullable(),
  farm_size: FarmSize.nullable(),
  tenure_type: TenureType.nullable(),
  irrigation_type: IrrigationType.nullable(),
  water_source: WaterSource.nullable(),
  common_grown_crops: z.array(CropName).max(50).nullable(),
  soil_type: SoilType.nullable(),
  currency: CurrencyCode.nullable(),
  location: TrimmedText(500).nullable(),
  country: TrimmedText(100).nullable(),
};

export const FarmCreateRequest = z
  .strictObject({
    name: TrimmedText(200),
    has_irrigation: z.boolean().optional(),
    farm_type: FarmType.optional(),
    farm_size: FarmSize.optional(),
    tenure_type: TenureType.optional(),
    irrigation_type: IrrigationType.optional(),
    water_source: WaterSource.optional(),
    common_grown_crops: z.array(CropName).max(50).optional(),
    soil_type: SoilType.optional(),
    currency: CurrencyCode.optional(),
    location: TrimmedText(500).optional(),
    country: TrimmedText(100).optional(),
  })
  .openapi('FarmCreateRequest');
export type FarmCreateRequest = z.infer<typeof FarmCreateRequest>;

/** PUT /farms/{farm_id}: omitted fields stay as they are; `null` clears an optional one; `updated_at`,
 *  when given, must equal the stored value (lost-update protection). */
export const FarmUpdateRequest = z
  .strictObject({
    name: TrimmedText(200).optional(),
    has_irrigation: z.boolean().optional(),
    farm_type: optionalFarmAttributes.farm_type.optional(),
    farm_size: optionalFarmAttributes.farm_size.optional(),
    tenure_type: optionalFarmAttributes.tenure_type.optional(),
    irrigation_type: optionalFarmAttributes.irrigation_type.optional(),
    water_source: optionalFarmAttributes.water_source.optional(),
    common_grown_crops: optionalFarmAttributes.common_grown_crops.optional(),
    soil_type: optionalFarmAttributes.soil_type.optional(),
    currency: optionalFarmAttributes.currency.optional(),
    location: optionalFarmAttributes.location.optional(),
    country: optionalFarmAttributes.country.optional(),
    updated_at: DateTime.optional(),
  })
  .openapi('FarmUpdateRequest');
export type FarmUpdateRequest = z.infer<typeof FarmUpdateRequest>;

/** A live or expired grant as the farm shows it: the owner and admins see every one, a granted
 *  organization only its own. `relationship` is the grant's first purpose. */
export const FarmLinkedOrganization = z
  .object({
    organization_id: z.string(),
    relationship: AccessPurpose,
    linked_at: DateTime,
    expires_on: CalendarDate.optional(),
  })
  .openapi('FarmLinkedOrganization');
export type FarmLinkedOrganization = z.infer<typeof FarmLinkedOrganization>;

export const Farm = z
  .object({
    farm_id: z.string(),
    platform_farm_id: z.string().openapi({ example: 'PM-4N8R2WJC' }),
    name: z.string(),
    owner_id: z.string(),
    registered_by_org_id: z.string().nullable(),
    has_irrigation: z.boolean(),
    ...optionalFarmAttributes,
    is_active: z.boolean(),
    created_at: DateTime,
    updated_at: DateTime,
    farmer: FarmerProfile,
    organizations: z.array(FarmLinkedOrganization),
  })
  .openapi('Farm');
export type Farm = z.infer<typeof Farm>;

export const FarmPathParams = z.strictObject({ farm_id: z.string().min(1).max(100) });
export const FarmReadQuery = z.strictObject({
  include_inactive: queryFlag(),
});

export const FarmerLookupResult = FarmerProfile.extend({
  farms: z.array(Farm),
  total_farms: z.number().int(),
}).openapi('FarmerLookupResult');
export type FarmerLookupResult = z.infer<typeof FarmerLookupResult>;

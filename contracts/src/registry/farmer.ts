import { DateTime, TrimmedText } from '../common';
import { z } from '../zod';

/** What a personal text field of an erased farmer reads as where the contract needs a string (SPEC §6). */
export const ERASED_TEXT = '[erased]';

export const OnboardingStatus = z.enum(['pending', 'completed']);
export const UploadChannel = z.enum(['app', 'web', 'whatsapp', 'sms', 'ussd', 'field_agent']);

export const PhoneNumber = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, { message: 'must be an E.164 phone number such as +254712345678' });
export const LanguageTag = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { message: 'must be a BCP 47 language tag such as en or sw-KE' });

const farmerProfileFields = {
  first_name: TrimmedText(100),
  last_name: TrimmedText(100),
  phone_number: PhoneNumber.nullable(),
  language: LanguageTag.nullable(),
  upload_channel: UploadChannel.nullable(),
  whatsapp_number: PhoneNumber.nullable(),
  data_consent_given: z.boolean(),
};

export const FarmerCreateRequest = z
  .strictObject({
    first_name: farmerProfileFields.first_name,
    last_name: farmerProfileFields.last_name,
    phone_number: farmerProfileFields.phone_number.optional(),
    language: farmerProfileFields.language.optional(),
    upload_channel: farmerProfileFields.upload_channel.optional(),
    whatsapp_number: farmerProfileFields.whatsapp_number.optional(),
    data_consent_given: farmerProfileFields.data_consent_given.optional(),
  })
  .openapi('FarmerCreateRequest');
export type FarmerCreateRequest = z.infer<typeof FarmerCreateRequest>;

/** PUT /farms/farmers/me: omitted fields stay as they are; `null` clears an optional one. */
export const FarmerUpdateRequest = z
  .strictObject({
    first_name: farmerProfileFields.first_name.optional(),
    last_name: farmerProfileFields.last_name.optional(),
    phone_number: farmerProfileFields.phone_number.optional(),
    language: farmerProfileFields.language.optional(),
    upload_channel: farmerProfileFields.upload_channel.optional(),
    whatsapp_number: farmerProfileFields.whatsapp_number.optional(),
    data_consent_given: farmerProfileFields.data_consent_given.optional(),
  })
  .openapi('FarmerUpdateRequest');
export type FarmerUpdateRequest = z.infer<typeof FarmerUpdateRequest>;

export const FarmerProfile = z
  .object({
    farmer_id: z.string(),
    platform_farmer_id: z.string().openapi({ example: 'PF-7K3M9QXD' }),
    first_name: z.string(),
    last_name: z.string(),
    phone_number: z.string().nullable(),
    language: z.string().nullable(),
    upload_channel: UploadChannel.nullable(),
    whatsapp_number: z.string().nullable(),
    onboarding_status: OnboardingStatus,
    data_consent_given: z.boolean(),
    is_active: z.boolean(),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .openapi('FarmerProfile');
export type FarmerProfile = z.infer<typeof FarmerProfile>;

/** The shareable farmer id a lookup names (`PF-…`, loosely written: case and dashes are forgiven). */
export const PlatformFarmerIdParams = z.strictObject({ platform_farmer_id: z.string().min(1).max(40) });

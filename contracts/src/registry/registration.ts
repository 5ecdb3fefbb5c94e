import { DateTime, TrimmedText } from '../common';
import { z } from '../zod';
import { Farm, FarmCreateRequest } from './farm';
import { AccessPurposes, ConsentMethod } from './farm-access';
import { FarmerProfile, LanguageTag, PhoneNumber, UploadChannel } from './farmer';
import { Field, FieldRegisterRequest } from './field';

// Assisted onboarding (SPEC §6): a field agent enrols a farmer without a login of their own, with a farm,
// its fields and the farmer's consent; the farmer claims the profile later from their own login.

/** How the farmer consented, as the agent records it. */
export const ConsentRecord = z
  .strictObject({
    method: ConsentMethod,
    recorded_at: DateTime,
    purposes: AccessPurposes,
    evidence_ref: TrimmedText(200).optional(),
  })
  .openapi('ConsentRecord');

/** Field ids named in one enrolment must differ (fields without one get an id each). */
const EnrolledFields = z
  .array(FieldRegisterRequest)
  .max(50)
  .superRefine((fields, context) => {
    const seen = new Set<string>();
    fields.forEach((field, index) => {
      if (field.field_id === undefined) return;
      if (seen.has(field.field_id))
        context.addIssue({ code: 'custom', path: [index, 'field_id'], message: 'must not repeat a field_id' });
      seen.add(field.field_id);
    });
  });

export const FarmerRegistrationRequest = z
  .strictObject({
    farmer: z.strictObject({
      first_name: TrimmedText(100),
      last_name: TrimmedText(100),
      phone_number: PhoneNumber.optional(),
      language: LanguageTag.optional(),
      upload_channel: UploadChannel,
    }),
    farm: FarmCreateRequest,
    fields: EnrolledFields.optional(),
    consent: ConsentRecord,
  })
  .openapi('FarmerRegistrationRequest');
export type FarmerRegistrationRequest = z.infer<typeof FarmerRegistrationRequest>;

export const FarmerRegistration = z
  .object({ farmer: FarmerProfile, farm: Farm, fields: z.array(Field) })
  .openapi('FarmerRegistration');
export type FarmerRegistration = z.infer<typeof FarmerRegistration>;

/** The farmer claims the profile a field agent enrolled: its shareable id and the phone it was enrolled with. */
export const FarmerClaimRequest = z
  .strictObject({ platform_farmer_id: z.string().min(1).max(40), phone_number: PhoneNumber })
  .openapi('FarmerClaimRequest');
export type FarmerClaimRequest = z.infer<typeof FarmerClaimRequest>;

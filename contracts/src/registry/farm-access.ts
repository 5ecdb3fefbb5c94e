import { DateTime } from '../common';
import { CalendarDate } from '../insurance/calendar-date';
import { z } from '../zod';

// A farmer's grants of access to their farm (SPEC §6 "A farmer's data belongs to the farmer"): who may
// read the farm, its fields and its farmer, and which organization may insure it.

/** What an organization may do with the farm's data; the first purpose of a grant is its
 *  `relationship` on the farm. */
export const AccessPurpose = z.enum(['insurance', 'credit', 'advisory', 'data_collection']);
export type AccessPurpose = z.infer<typeof AccessPurpose>;

/** How a grant came about: the owner's or an admin's act, a field agent's enrolment with the farmer's
 *  recorded consent, or (before grants existed) an insurer issuing a policy on the farm. */
export const AccessOrigin = z.enum(['owner', 'admin', 'assisted_onboarding', 'policy_issued']);
export type AccessOrigin = z.infer<typeof AccessOrigin>;

/** A grant's purposes: at least one, none twice. */
export const AccessPurposes = z
  .array(AccessPurpose)
  .min(1, { message: 'must name at least one purpose' })
  .refine((purposes) => new Set(purposes).size === purposes.length, { message: 'must not repeat a purpose' });

export const FarmAccessGrantRequest = z
  .strictObject({
    organization_id: z.string().trim().min(1).max(100),
    purposes: AccessPurposes,
    expires_on: CalendarDate.optional().openapi({ description: 'the last day the grant is live (UTC)' }),
  })
  .openapi('FarmAccessGrantRequest');
export type FarmAccessGrantRequest = z.infer<typeof FarmAccessGrantRequest>;

export const FarmAccessPathParams = z.strictObject({
  farm_id: z.string().min(1).max(100),
  organization_id: z.string().min(1).max(100),
});

export const FarmAccessGrant = z
  .object({
    farm_id: z.string(),
    organization_id: z.string(),
    purposes: z.array(AccessPurpose),
    relationship: AccessPurpose,
    origin: AccessOrigin,
    granted_at: DateTime,
    expires_on: CalendarDate.nullable(),
  })
  .openapi('FarmAccessGrant');
export type FarmAccessGrant = z.infer<typeof FarmAccessGrant>;

export const FarmAccessList = z.object({ items: z.array(FarmAccessGrant) }).openapi('FarmAccessList');
export type FarmAccessList = z.infer<typeof FarmAccessList>;

/** How a field agent obtained the farmer's consent (SPEC §6 assisted onboarding). */
export const ConsentMethod = z.enum(['verbal', 'signed_form', 'ussd', 'sms']);
export type ConsentMethod = z.infer<typeof ConsentMethod>;

/** The evidence of consent a grant of origin `assisted_onboarding` stands on; the agent who recorded it
 *  is the grant's `granted_by`, the consented purposes its `purposes`. */
export const ConsentEvidence = z
  .object({
    method: ConsentMethod,
    recorded_at: DateTime,
    evidence_ref: z.string().nullable().openapi({ description: 'where the form, recording or message is kept' }),
  })
  .openapi('ConsentEvidence');
export type ConsentEvidence = z.infer<typeof ConsentEvidence>;

/** The farmer (or an admin, or a field agent's enrolment with consent) gave an organization access.
 *  A later grant to the same organization replaces the earlier one. */
export const FarmAccessGranted = z
  .object({
    farm_id: z.string(),
    organization_id: z.string(),
    purposes: z.array(AccessPurpose).min(1),
    expires_on: CalendarDate.nullable(),
    origin: AccessOrigin,
    granted_by: z.string().openapi({ description: 'the subject who granted it' }),
    granted_at: DateTime,
    /** Present on a grant of origin `assisted_onboarding`: how the farmer consented. */
    consent: ConsentEvidence.optional(),
  })
  .openapi('FarmAccessGranted');

/** The organization's access ends; policies it issued stay valid, evaluable and payable. */
export const FarmAccessRevoked = z
  .object({
    farm_id: z.string(),
    organization_id: z.string(),
    revoked_by: z.string(),
    revoked_at: DateTime,
  })
  .openapi('FarmAccessRevoked');

import { DateTime } from '../common';
import { Peril } from '../insurance/peril';
import { z } from '../zod';

// Events of the `programme-<id>` stream, as stored and published. Money in integer minor units of the
// programme's currency (`*_minor`). They are forever: change a shape only with a new schema_version and
// an upcaster.

const MinorUnits = z.number().int().nonnegative();

const ZoneRule = { source_id: z.string(), location: z.string() };

export const CapacityRulesMinor = z
  .object({
    zone_default_minor: MinorUnits.nullable(),
    zones: z.array(z.object({ ...ZoneRule, capacity_minor: MinorUnits })),
    zone_perils: z.array(z.object({ ...ZoneRule, peril: Peril, capacity_minor: MinorUnits })),
  })
  .openapi('CapacityRulesMinor');
export type CapacityRulesMinor = z.infer<typeof CapacityRulesMinor>;

export const ProgrammeCreated = z
  .object({
    programme_id: z.string(),
    organization_id: z.string(),
    name: z.string(),
    currency: z.string(),
    /** The organization's programme for the currency that issues naming none join. */
    is_default: z.boolean(),
    aggregate_limit_minor: MinorUnits.nullable(),
    capacity: CapacityRulesMinor,
    created_at: DateTime,
  })
  .openapi('ProgrammeCreated');
export type ProgrammeCreated = z.infer<typeof ProgrammeCreated>;

/** A PATCH as decided: what it names is set, `null` removes a limit, what it leaves out is unchanged. */
export const ProgrammeUpdated = z
  .object({
    programme_id: z.string(),
    aggregate_limit_minor: MinorUnits.nullable().optional(),
    capacity: z
      .object({
        zone_default_minor: MinorUnits.nullable().optional(),
        zones: z.array(z.object({ ...ZoneRule, capacity_minor: MinorUnits.nullable() })).optional(),
        zone_perils: z.array(z.object({ ...ZoneRule, peril: Peril, capacity_minor: MinorUnits.nullable() })).optional(),
      })
      .optional(),
    updated_at: DateTime,
  })
  .openapi('ProgrammeUpdated');
export type ProgrammeUpdated = z.infer<typeof ProgrammeUpdated>;

/** One accumulation zone a policy's covers read, with the perils reading it and their premiums. */
export const ExposureZone = z
  .object({
    ...ZoneRule,
    perils: z.array(z.object({ peril: Peril, premium_minor: MinorUnits })),
  })
  .openapi('ExposureZone');
export type ExposureZone = z.infer<typeof ExposureZone>;

const PolicyExposure = {
  programme_id: z.string(),
  policy_id: z.string(),
  sum_insured_minor: MinorUnits,
  premium_minor: MinorUnits,
  /** Every zone the policy's covers read, each once. */
  zones: z.array(ExposureZone),
};

/** The policy's sum insured committed against the programme's capacity: appended with its PolicyIssued,
 *  after the binding check passed. `reserved_at` is the moment. */
export const ExposureReserved = z.object({ ...PolicyExposure, reserved_at: DateTime }).openapi('ExposureReserved');
export type ExposureReserved = z.infer<typeof ExposureReserved>;

/** Why a reservation ends: the policy lapsed or closed (payouts release nothing), or its issue was never
 *  written (the compensation of a store that cannot append both streams at once). */
export const ExposureReleaseReason = z.enum(['lapsed', 'closed', 'issue_failed']).openapi('ExposureReleaseReason');
export type ExposureReleaseReason = z.infer<typeof ExposureReleaseReason>;

/** The reservation given back, whole: the same zones and amounts it committed. */
export const ExposureReleased = z
  .object({ ...PolicyExposure, reason: ExposureReleaseReason, released_at: DateTime })
  .openapi('ExposureReleased');
export type ExposureReleased = z.infer<typeof ExposureReleased>;

export const ProgrammeEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ProgrammeCreated'), data: ProgrammeCreated }),
  z.object({ type: z.literal('ProgrammeUpdated'), data: ProgrammeUpdated }),
  z.object({ type: z.literal('ExposureReserved'), data: ExposureReserved }),
  z.object({ type: z.literal('ExposureReleased'), data: ExposureReleased }),
]);
export type ProgrammeEvent = z.infer<typeof ProgrammeEvent>;

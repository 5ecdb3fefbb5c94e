import { DateTime } from '../common';
import { z } from '../zod';
import { CalendarDate } from './calendar-date';
import { DataCoverage, SkipReasons } from './data-coverage';
import { Comparison, Peril, PolicyEnvironment, PricingMethod, TriggerIndex } from './peril';
import { PhaseEvaluated } from './phases';
import { PolicyProduct } from './products';
import { PolicyDataSources, ReadingsProvenance } from './provenance';
import { TermSheet } from './term-sheet';
import { TriggerTerms } from './trigger-terms';

// Event payloads of the insurance area as stored in the log and published downstream. Money is in
// integer minor units of `currency` (`*_minor`); severities, rates and index values are decimals
// with at most 6 places. They are forever: change a shape only with a new schema_version and an upcaster.

const MinorUnits = z.number().int().nonnegative();

export const PerilPremium = z.object({
  peril: Peril,
  rate: z.number(),
  premium_minor: MinorUnits,
  method: PricingMethod,
  seasons_used: z.number().int().nonnegative(),
  /** Z = n / (n + k) of the seasons blended in, 6 decimals. Absent on policies issued before
   *  credibility blending, when the burning cost replaced the base rate from 10 seasons on. */
  credibility: z.number().min(0).max(1).optional(),
});
export type PerilPremium = z.infer<typeof PerilPremium>;

/** A payer's part of the premium, frozen at issue. */
export const PayerPremiumMinor = z.object({ payer: z.string(), share: z.number(), premium_minor: MinorUnits });
export type PayerPremiumMinor = z.infer<typeof PayerPremiumMinor>;

export const PolicyIssued = z
  .object({
    policy_id: z.string(),
    organization_id: z.string(),
    environment: PolicyEnvironment,
    farm_id: z.string(),
    field_id: z.string(),
    /** The farm's owner, whose key seals `farm_name` (SPEC §6: a farm name is personal); absent on policies
     *  issued before, whose `farm_name` stays as it was stored. */
    owner_farmer_id: z.string().optional(),
    farm_name: z.string().nullable(),
    field_name: z.string().nullable(),
    field_area_ha: z.number().nullable(),
    /** `"lat,lon"` of a registered field. */
    field_location: z.string().nullable(),
    crop_type: z.string().nullable(),
    currency: z.string(),
    sum_insured_minor: MinorUnits,
    premium_minor: MinorUnits,
    rate: z.number(),
    pricing: z.array(PerilPremium),
    /** The exposure units insured, for a product insured per exposure unit (TERM-SHEETS.md §5). */
    exposure_units: z.number().optional(),
    /** Who pays the premium, when the product's sheet splits it (TERM-SHEETS.md §5). */
    premium_shares: z.array(PayerPremiumMinor).optional(),
    perils: z.array(Peril),
    /** The `default` product's covers as trigger terms, as every policy before products froze them; empty
     *  for any other product, whose covers are only in `term_sheet`. */
    triggers: z.array(TriggerTerms),
    term_start: CalendarDate,
    term_end: CalendarDate,
    settlement_period_days: z.number().int().nonnegative(),
    /** The data each peril reads, resolved and frozen at issue. Absent on policies issued before sources:
     *  those read their own organization's field readings (the upcast in the policy's evolve). */
    data_sources: PolicyDataSources.optional(),
    /** The product version the policy was issued on (schema version 2). Absent on policies issued before
     *  products: those read as `default` version 0, a sheet built from their own `triggers`. */
    product: PolicyProduct.optional(),
    /** The whole sheet of that version, frozen: the policy pays on it whatever later versions say (schema
     *  version 2; absent before products, as `product`). */
    term_sheet: TermSheet.optional(),
    /** The programme whose capacity the policy is reserved against (SPEC §7); absent on policies issued
     *  before programmes, which are in none. */
    programme_id: z.string().optional(),
    issued_at: DateTime,
    platform_version: z.string(),
  })
  .openapi('PolicyIssued');

/** The schema version `PolicyIssued` is written at: 2 since it carries `product` and `term_sheet`. */
export const POLICY_ISSUED_SCHEMA_VERSION = 2;
export type PolicyIssued = z.infer<typeof PolicyIssued>;

/** One peril of one non-backtest evaluation; holds everything the history shows, so it replays
 *  without the readings table. A cover of several phases shows its governing phase (the one worth the
 *  most, else the latest evaluated) in `observed_value`, `threshold`, `comparison` and `coverage`, and
 *  every phase in `phases`. */
export const TriggerEvaluated = z
  .object({
    policy_id: z.string(),
    evaluation_id: z.string(),
    peril: Peril,
    trigger_index: TriggerIndex,
    as_of: CalendarDate,
    window_start: CalendarDate,
    window_end: CalendarDate,
    observed_value: z.number(),
    readings_used: z.number().int().positive(),
    /** Absent on evaluations recorded before coverage was: those filled gaps in (see docs/decisions.md). */
    coverage: DataCoverage.optional(),
    /** Absent on evaluations recorded before provenance was. */
    provenance: ReadingsProvenance.optional(),
    threshold: z.number(),
    comparison: Comparison,
    breached: z.boolean(),
    /** Rounded to 6 decimals for display; payouts are computed from the exact fraction. */
    severity: z.number().min(0).max(1),
    /** What the peril's breach is worth as of this evaluation (0 when not breached): the exact severity
     *  × sum insured, rounded once. Absent on evaluations recorded before it was. */
    amount_due_minor: MinorUnits.optional(),
    /** Each phase of a cover of several phases; absent for a single phase (and before phases were). */
    phases: z.array(PhaseEvaluated).optional(),
    evaluated_at: DateTime,
  })
  .openapi('TriggerEvaluated');
export type TriggerEvaluated = z.infer<typeof TriggerEvaluated>;

/** The perils of an evaluation that had too little data to check: not the same as not breached. */
export const TriggerEvaluationSkipped = z
  .object({
    policy_id: z.string(),
    evaluation_id: z.string(),
    perils: z.array(Peril),
    /** Why each peril was skipped. Absent on events recorded before it: those perils had no reading. */
    reasons: SkipReasons.optional(),
    as_of: CalendarDate,
    window_start: CalendarDate,
    window_end: CalendarDate,
    evaluated_at: DateTime,
  })
  .openapi('TriggerEvaluationSkipped');
export type TriggerEvaluationSkipped = z.infer<typeof TriggerEvaluationSkipped>;

/** A new or deeper breach. Self-contained for the trigger.breached webhook; `payout` is null when the
 *  breach pays nothing more (severity rounds to what was paid, or the sum insured is exhausted). */
export const TriggerBreached = z
  .object({
    policy_id: z.string(),
    /** The policy's organization, whom the breach is delivered to. Absent on breaches recorded before it
     *  was added: the log cannot tell it for those (an admin may evaluate another organization's policy),
     *  so no upcaster fills it in and they are published as they were. */
    organization_id: z.string().optional(),
    evaluation_id: z.string(),
    farm_id: z.string(),
    field_id: z.string(),
    peril: Peril,
    trigger_index: TriggerIndex,
    observed_value: z.number(),
    threshold: z.number(),
    severity: z.number().min(0).max(1),
    /** What the breach is worth in full, before what the peril was already paid and the sum insured left.
     *  Absent on breaches recorded before it was: those were worth round(severity × sum insured). */
    amount_due_minor: MinorUnits.optional(),
    as_of: CalendarDate,
    /** The governing phase, whose figures these are, of a cover of several phases; absent for a single
     *  phase. */
    phase: z.string().optional(),
    payout: z.object({ payout_id: z.string(), amount_minor: MinorUnits, currency: z.string() }).nullable(),
    breached_at: DateTime,
  })
  .openapi('TriggerBreached');
export type TriggerBreached = z.infer<typeof TriggerBreached>;

export const PayoutApproved = z
  .object({
    policy_id: z.string(),
    payout_id: z.string(),
    evaluation_id: z.string(),
    peril: Peril,
    severity: z.number().min(0).max(1),
    amount_minor: z.number().int().positive(),
    currency: z.string(),
    approved_at: DateTime,
  })
  .openapi('PayoutApproved');
export type PayoutApproved = z.infer<typeof PayoutApproved>;

export const PayoutSettled = z
  .object({ policy_id: z.string(), payout_id: z.string(), settled_at: DateTime })
  .openapi('PayoutSettled');
export type PayoutSettled = z.infer<typeof PayoutSettled>;

export const PolicyLapsed = z
  .object({ policy_id: z.string(), reason: z.string(), lapsed_at: DateTime })
  .openapi('PolicyLapsed');
export type PolicyLapsed = z.infer<typeof PolicyLapsed>;

/** No longer recorded: an unpaid policy's closing before `PolicyClosed` was; read as closed and expired. */
export const PolicyExpired = z.object({ policy_id: z.string(), expired_at: DateTime }).openapi('PolicyExpired');
export type PolicyExpired = z.infer<typeof PolicyExpired>;

/** A corrected reading lowered what a peril is due below what it was already paid. Nothing is taken
 *  back; recorded once per change of the amount due, for the insurer to follow up. */
export const PayoutOverpaymentRecorded = z
  .object({
    policy_id: z.string(),
    evaluation_id: z.string(),
    peril: Peril,
    amount_paid_minor: MinorUnits,
    amount_due_minor: MinorUnits,
    difference_minor: z.number().int().positive(),
    currency: z.string(),
    recorded_at: DateTime,
  })
  .openapi('PayoutOverpaymentRecorded');
export type PayoutOverpaymentRecorded = z.infer<typeof PayoutOverpaymentRecorded>;

/** Finality: at term end + the settlement period the policy is closed, paid or not; no live evaluation
 *  pays after it. `status` is what it closed as: `expired` when nothing was paid, else `claimed`. */
export const PolicyClosed = z
  .object({ policy_id: z.string(), status: z.enum(['expired', 'claimed']), closed_at: DateTime })
  .openapi('PolicyClosed');
export type PolicyClosed = z.infer<typeof PolicyClosed>;

export const PolicyEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('PolicyIssued'), data: PolicyIssued }),
  z.object({ type: z.literal('TriggerEvaluated'), data: TriggerEvaluated }),
  z.object({ type: z.literal('TriggerEvaluationSkipped'), data: TriggerEvaluationSkipped }),
  z.object({ type: z.literal('TriggerBreached'), data: TriggerBreached }),
  z.object({ type: z.literal('PayoutApproved'), data: PayoutApproved }),
  z.object({ type: z.literal('PayoutSettled'), data: PayoutSettled }),
  z.object({ type: z.literal('PolicyLapsed'), data: PolicyLapsed }),
  z.object({ type: z.literal('PolicyExpired'), data: PolicyExpired }),
  z.object({ type: z.literal('PayoutOverpaymentRecorded'), data: PayoutOverpaymentRecorded }),
  z.object({ type: z.literal('PolicyClosed'), data: PolicyClosed }),
]);
export type PolicyEvent = z.infer<typeof PolicyEvent>;

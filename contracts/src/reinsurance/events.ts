import { DateTime } from '../common';
import { CalendarDate } from '../insurance/calendar-date';
import { Peril } from '../insurance/peril';
import { z } from '../zod';

// Events of the `reinsurance-<programme_id>` stream: the treaties bound to a programme and its cession
// ledger. Money in integer minor units of the programme's currency; movements (`gross_minor`,
// `ceded_minor`, `delta_minor`) are signed — a lapse or a revision moves them back. Forever, as every event.

const Minor = z.number().int();
const MinorUnits = Minor.nonnegative();

export const LedgerPeriod = z.object({ from: CalendarDate, to: CalendarDate }).openapi('LedgerPeriod');
export type LedgerPeriod = z.infer<typeof LedgerPeriod>;

const RatioOrAmountMinor = z.union([z.object({ ratio: z.number() }), z.object({ amount_minor: MinorUnits })]);

export const TreatyTerms = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('quota_share'), cession_rate: z.number(), ceding_commission: z.number() }),
    z.object({ type: z.literal('stop_loss'), attachment: RatioOrAmountMinor, limit: RatioOrAmountMinor }),
    z.object({
      type: z.literal('cat_xl'),
      retention_minor: MinorUnits,
      limit_minor: MinorUnits,
      aggregate_limit_minor: MinorUnits.nullable(),
    }),
  ])
  .openapi('TreatyTerms');
export type TreatyTerms = z.infer<typeof TreatyTerms>;

export const TreatyBound = z
  .object({
    programme_id: z.string(),
    treaty_id: z.string(),
    /** The ceding organization: the programme's. */
    organization_id: z.string(),
    reinsurer_organization_id: z.string().nullable(),
    currency: z.string(),
    period: LedgerPeriod,
    inurance_order: z.number().int().positive(),
    terms: TreatyTerms,
    bound_at: DateTime,
  })
  .openapi('TreatyBound');
export type TreatyBound = z.infer<typeof TreatyBound>;

const LedgerEntry = {
  programme_id: z.string(),
  period: LedgerPeriod,
  /** What moved the ledger, its idempotency key: a policy's issue or lapse, a payout, an overpayment, a
   *  treaty's binding. */
  source_event: z.string(),
  recorded_at: DateTime,
};

/** A policy's premium as the period's treaties see it: its level now (0 once lapsed) and the movement. */
export const SubjectPremiumRecorded = z
  .object({
    ...LedgerEntry,
    policy_id: z.string(),
    /** The revision of the policy's stream the level was taken at: an older one is a replay. */
    policy_revision: z.number().int().nonnegative(),
    premium_minor: MinorUnits,
    gross_minor: Minor,
    cumulative_gross_minor: MinorUnits,
  })
  .openapi('SubjectPremiumRecorded');
export type SubjectPremiumRecorded = z.infer<typeof SubjectPremiumRecorded>;

/** The catastrophe event a loss belongs to: its zone and clock (the zone's season, or 72 hours from its
 *  first loss) make `key`; events are allocated an aggregate limit in `starts_at` order. */
export const CatEvent = z.object({ key: z.string(), starts_at: DateTime }).openapi('CatEvent');
export type CatEvent = z.infer<typeof CatEvent>;

/** A cover's loss as the period's treaties see it: what it was paid, or less once an overpayment found it
 *  due less (the treaties follow what was due, not what was overpaid). */
export const SubjectLossRecorded = z
  .object({
    ...LedgerEntry,
    policy_id: z.string(),
    policy_revision: z.number().int().nonnegative(),
    peril: Peril,
    source_id: z.string(),
    location: z.string(),
    cat_event: CatEvent,
    loss_minor: MinorUnits,
    gross_minor: Minor,
    cumulative_gross_minor: MinorUnits,
  })
  .openapi('SubjectLossRecorded');
export type SubjectLossRecorded = z.infer<typeof SubjectLossRecorded>;

const TreatyEntry = { ...LedgerEntry, treaty_id: z.string() };

/** A quota share's share of a premium movement. Cumulative rounding: cumulative ceded = half-up(rate ×
 *  cumulative gross); this entry is the difference from the last. */
export const PremiumCeded = z
  .object({
    ...TreatyEntry,
    policy_id: z.string().nullable(),
    gross_minor: Minor,
    cumulative_gross_minor: MinorUnits,
    ceded_minor: Minor,
    cumulative_ceded_minor: MinorUnits,
    ceding_commission_minor: Minor,
    cumulative_ceding_commission_minor: MinorUnits,
  })
  .openapi('PremiumCeded');
export type PremiumCeded = z.infer<typeof PremiumCeded>;

/** A quota share's share of a loss movement, rounded cumulatively like its premium. */
export const CessionRecorded = z
  .object({
    ...TreatyEntry,
    policy_id: z.string().nullable(),
    peril: Peril.nullable(),
    source_id: z.string().nullable(),
    location: z.string().nullable(),
    gross_minor: Minor,
    cumulative_gross_minor: MinorUnits,
    ceded_minor: Minor,
    cumulative_ceded_minor: MinorUnits,
    /** gross_minor − ceded_minor. */
    net_minor: Minor,
  })
  .openapi('CessionRecorded');
export type CessionRecorded = z.infer<typeof CessionRecorded>;

/** A stop-loss's or a cat XL event's recovery, recomputed: the subject it applies to, the attachment
 *  (retention) and limit, the recovery now and its change. */
export const RecoveryRecorded = z
  .object({
    ...TreatyEntry,
    /** The cat XL event; null for a stop-loss. */
    cat_event: z.string().nullable(),
    subject_minor: MinorUnits,
    attachment_minor: MinorUnits,
    limit_minor: MinorUnits,
    cumulative_recovery_minor: MinorUnits,
    delta_minor: Minor,
  })
  .openapi('RecoveryRecorded');
export type RecoveryRecorded = z.infer<typeof RecoveryRecorded>;

export const ReinsuranceEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('TreatyBound'), data: TreatyBound }),
  z.object({ type: z.literal('SubjectPremiumRecorded'), data: SubjectPremiumRecorded }),
  z.object({ type: z.literal('SubjectLossRecorded'), data: SubjectLossRecorded }),
  z.object({ type: z.literal('PremiumCeded'), data: PremiumCeded }),
  z.object({ type: z.literal('CessionRecorded'), data: CessionRecorded }),
  z.object({ type: z.literal('RecoveryRecorded'), data: RecoveryRecorded }),
]);
export type ReinsuranceEvent = z.infer<typeof ReinsuranceEvent>;

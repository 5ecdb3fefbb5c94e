import { DateTime } from '../common';
import { CalendarDate } from '../insurance/calendar-date';
import { LimitAmount, Ratio } from '../programmes/limit-amount';
import { z } from '../zod';

// Treaties bound to a programme (SPEC §7 "Reinsurance"), applied in the order bound: quota share first,
// then stop-loss on the net. Amounts in major units on the wire; ratios of premium as decimals.

export const TreatyType = z.enum(['quota_share', 'stop_loss', 'cat_xl']).openapi('TreatyType');
export type TreatyType = z.infer<typeof TreatyType>;

/** The dates whose issued policies a treaty covers, both included (risks attaching). */
export const TreatyPeriod = z
  .strictObject({ from: CalendarDate, to: CalendarDate })
  .refine((period) => period.from <= period.to, { message: 'from must not be after to', path: ['to'] })
  .openapi('TreatyPeriod');
export type TreatyPeriod = z.infer<typeof TreatyPeriod>;

const TreatyCommon = {
  /** Default: the calendar year the treaty is bound in. */
  period: TreatyPeriod.optional(),
  /** The reinsurer's organization: its `reinsurer` users read this treaty, its programme and cessions. */
  reinsurer_organization_id: z.string().min(1).max(200).optional(),
};

/** A stop-loss attachment or limit: a ratio of the subject premium (the gross premium, or the net after
 *  the treaties bound before it), or an amount. */
export const RatioOrAmount = z
  .union([z.strictObject({ ratio: Ratio(100) }), z.strictObject({ amount: LimitAmount })])
  .openapi('RatioOrAmount');
export type RatioOrAmount = z.infer<typeof RatioOrAmount>;

export const TreatyBindRequest = z
  .discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('quota_share'),
      /** The share of every premium and claim ceded, in (0, 1]. */
      cession_rate: Ratio(1).refine((rate) => rate > 0, { message: 'must be more than 0' }),
      /** Paid back by the reinsurer on the ceded premium, in [0, 1]. */
      ceding_commission: Ratio(1).default(0),
      ...TreatyCommon,
    }),
    z.strictObject({ type: z.literal('stop_loss'), attachment: RatioOrAmount, limit: RatioOrAmount, ...TreatyCommon }),
    z.strictObject({
      type: z.literal('cat_xl'),
      /** Per event: what the programme keeps before the layer pays. */
      retention: LimitAmount,
      /** Per event: the most the layer pays. */
      limit: LimitAmount.refine((limit) => limit > 0, { message: 'must be more than 0' }),
      /** Over the period: the most the layer pays in all. Absent: no aggregate limit. */
      aggregate_limit: LimitAmount.optional(),
      ...TreatyCommon,
    }),
  ])
  .openapi('TreatyBindRequest');
export type TreatyBindRequest = z.infer<typeof TreatyBindRequest>;

const TreatyShown = {
  treaty_id: z.string(),
  programme_id: z.string(),
  period: z.object({ from: CalendarDate, to: CalendarDate }),
  reinsurer_organization_id: z.string().nullable(),
  /** 1 for the first treaty bound to the programme: the order treaties apply in. */
  inurance_order: z.number().int().positive(),
  bound_at: DateTime,
};

const RatioOrAmountShown = z.union([z.object({ ratio: z.number() }), z.object({ amount: z.number() })]);

export const Treaty = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('quota_share'),
      ...TreatyShown,
      cession_rate: z.number(),
      ceding_commission: z.number(),
    }),
    z.object({
      type: z.literal('stop_loss'),
      ...TreatyShown,
      attachment: RatioOrAmountShown,
      limit: RatioOrAmountShown,
    }),
    z.object({
      type: z.literal('cat_xl'),
      ...TreatyShown,
      retention: z.number(),
      limit: z.number(),
      aggregate_limit: z.number().nullable(),
    }),
  ])
  .openapi('Treaty');
export type Treaty = z.infer<typeof Treaty>;

export const TreatyList = z.object({ items: z.array(Treaty) }).openapi('TreatyList');
export type TreatyList = z.infer<typeof TreatyList>;

import { CurrencyCode } from '../currency';
import { z } from '../zod';
import { CalendarDate } from './calendar-date';
import { hasAtMostDecimals } from './money-amount';
import { Peril } from './peril';
import { PhaseId, TermSheet } from './term-sheet';

// The payout curve (TERM-SHEETS.md §5.1): what a sheet's cover pays at each index value of a range, for a
// designer checking a map before registering it. Stores nothing.

export const MAX_CURVE_POINTS = 1000;

const IndexFigure = z
  .number()
  .refine((value) => hasAtMostDecimals(value, 6), { message: 'must have at most 6 decimals' });

export const PayoutCurveRequest = z
  .strictObject({
    sheet: TermSheet,
    peril: Peril,
    /** One phase alone; absent: every phase of the cover, each reading the same index value. */
    phase: PhaseId.optional(),
    /** The index range, in the index's unit, both ends on the curve. */
    from: IndexFigure,
    to: IndexFigure,
    points: z.number().int().min(2).max(MAX_CURVE_POINTS),
    /** The term the windows resolve on (`per_window_day` levels count its days); absent: the term a quote
     *  without one prices (the sheet's next season, or a year from today). */
    term_start: CalendarDate.optional(),
    term_end: CalendarDate.optional(),
  })
  .superRefine((request, context) => {
    if (request.to <= request.from) {
      context.addIssue({ code: 'custom', path: ['to'], message: 'must be greater than from' });
    }
    if ((request.term_start === undefined) !== (request.term_end === undefined)) {
      context.addIssue({ code: 'custom', path: ['term_end'], message: 'term_start and term_end go together' });
    } else if (request.term_start !== undefined && request.term_end! <= request.term_start) {
      context.addIssue({ code: 'custom', path: ['term_end'], message: 'must be after term_start' });
    }
    const at = request.sheet.covers.findIndex((cover) => cover.peril === request.peril);
    if (at < 0) {
      context.addIssue({ code: 'custom', path: ['peril'], message: `the sheet has no cover of ${request.peril}` });
    } else if (
      request.phase !== undefined &&
      !request.sheet.covers[at]!.phases.some((phase) => phase.id === request.phase)
    ) {
      context.addIssue({
        code: 'custom',
        path: ['phase'],
        message: `the ${request.peril} cover has no phase ${request.phase}`,
      });
    }
  })
  .openapi('PayoutCurveRequest');
export type PayoutCurveRequest = z.infer<typeof PayoutCurveRequest>;

/** Severity: the fraction of the limit, 6 decimals; amounts in major units, present when the sheet's
 *  amounts are money (unit `minor`). */
const Severity = z.number().min(0).max(1);

export const PayoutCurvePhasePoint = z
  .object({
    phase: z.string(),
    /** A_p ÷ (phase limit·M). */
    severity: Severity,
    /** A_p, rounded as the sheet rounds money. */
    amount_due: z.number().optional(),
  })
  .openapi('PayoutCurvePhasePoint');

export const PayoutCurvePoint = z
  .object({
    index_value: z.number(),
    phases: z.array(PayoutCurvePhasePoint),
    cover: z.object({
      /** A_c ÷ (cover limit·M), A_c = min(cover limit·M, Σ the phases read). */
      severity: Severity,
      /** A_c, the one money rounding. */
      amount_due: z.number().optional(),
      /** What a policy of the basis sum insured that was paid nothing yet is paid: the amount due within
       *  the sheet's limit. */
      payout: z.number().optional(),
    }),
  })
  .openapi('PayoutCurvePoint');
export type PayoutCurvePoint = z.infer<typeof PayoutCurvePoint>;

export const PayoutCurve = z
  .object({
    peril: Peril,
    index: z.string(),
    /** The phase asked for; absent: every phase of the cover. */
    phase: z.string().optional(),
    term_start: CalendarDate,
    term_end: CalendarDate,
    /** Present when the sheet's amounts are money: its currency and basis sum insured (major units). */
    currency: CurrencyCode.optional(),
    sum_insured: z.number().optional(),
    points: z.array(PayoutCurvePoint),
  })
  .openapi('PayoutCurve');
export type PayoutCurve = z.infer<typeof PayoutCurve>;

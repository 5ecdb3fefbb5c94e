import { DateTime } from '../common';
import { z } from '../zod';
import { CalendarDate } from './calendar-date';
import { DataCoverage, SkipReasons } from './data-coverage';
import { PageNumber, PageSize } from './pagination';
import { PayoutStatus, Peril, PolicyStatus, TriggerIndex } from './peril';
import { PhaseEvaluation } from './phases';

export const EvaluateRequest = z.strictObject({ as_of: CalendarDate.optional() }).openapi('EvaluateRequest');
export type EvaluateRequest = z.infer<typeof EvaluateRequest>;

export const TriggerEventResponse = z
  .object({
    peril: Peril,
    index: TriggerIndex,
    observed_value: z.number(),
    threshold: z.number(),
    breached: z.boolean(),
    severity: z.number(),
    /** Absent on evaluations recorded before coverage was. */
    coverage: DataCoverage.optional(),
    /** Each phase of a cover of several phases (the figures above are its governing phase's); absent for
     *  a single phase. */
    phases: z.array(PhaseEvaluation).optional(),
  })
  .openapi('TriggerEventResponse');
export type TriggerEventResponse = z.infer<typeof TriggerEventResponse>;

export const EvaluationResult = z
  .object({
    policy_id: z.string(),
    as_of: CalendarDate,
    events: z.array(TriggerEventResponse),
    /** Paid by this evaluation; for a backtest, what the cover would have paid as of that date. */
    total_payout: z.number(),
    currency: z.string(),
    is_backtest: z.boolean(),
    payout_count: z.number().int().optional(),
    policy_status: PolicyStatus.optional(),
    triggers_evaluated: z.number().int(),
    triggers_total: z.number().int(),
    skipped_perils: z.array(Peril).optional(),
    /** Why each of `skipped_perils` was skipped. */
    skipped_reasons: SkipReasons.optional(),
  })
  .openapi('EvaluationResult');
export type EvaluationResult = z.infer<typeof EvaluationResult>;

export const Payout = z
  .object({
    payout_id: z.string(),
    amount: z.number(),
    currency: z.string(),
    status: PayoutStatus,
    settled_at: DateTime.optional(),
  })
  .openapi('Payout');
export type Payout = z.infer<typeof Payout>;

export const PayoutOverpayment = z
  .object({
    amount_paid: z.number(),
    amount_due: z.number(),
    difference: z.number(),
    currency: z.string(),
    recorded_at: DateTime,
  })
  .openapi('PayoutOverpayment');
export type PayoutOverpayment = z.infer<typeof PayoutOverpayment>;

export const TriggerEvaluationHistoryItem = z
  .object({
    evaluation_id: z.string(),
    peril: Peril,
    trigger_index: TriggerIndex,
    observed_value: z.number(),
    threshold: z.number(),
    breached: z.boolean(),
    severity: z.number(),
    as_of: CalendarDate,
    window_start: CalendarDate,
    window_end: CalendarDate,
    evaluated_at: DateTime,
    /** The coverage this evaluation was judged on; absent on evaluations recorded before coverage was. */
    coverage: DataCoverage.optional(),
    /** Present only when this peril paid in this evaluation. */
    payout: Payout.optional(),
    /** Present only when this evaluation found the peril due less than it was already paid (a corrected
     *  reading): nothing is taken back, this records it. */
    overpayment: PayoutOverpayment.optional(),
    /** Each phase of a cover of several phases; absent for a single phase. */
    phases: z.array(PhaseEvaluation).optional(),
  })
  .openapi('TriggerEvaluationHistoryItem');
export type TriggerEvaluationHistoryItem = z.infer<typeof TriggerEvaluationHistoryItem>;

export const EvaluationHistoryQuery = z.strictObject({ page: PageNumber, page_size: PageSize });
export type EvaluationHistoryQuery = z.infer<typeof EvaluationHistoryQuery>;

export const EvaluationHistory = z
  .object({
    policy_id: z.string(),
    items: z.array(TriggerEvaluationHistoryItem),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .openapi('EvaluationHistory');
export type EvaluationHistory = z.infer<typeof EvaluationHistory>;

export const PayoutPathParams = z.strictObject({ payout_id: z.string().min(1).max(100) });

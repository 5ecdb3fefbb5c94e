import { z } from '../zod';
import { Comparison, Peril, ReadingIndex, TriggerIndex } from './peril';

// The trigger of one peril as frozen into a policy at issue: later catalog changes never reach it.

export const TriggerAggregation = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('sum') }),
    z.object({ kind: z.literal('max_rolling_sum'), days: z.number().int().positive() }),
    z.object({ kind: z.literal('mean_of_last_days'), days: z.number().int().positive() }),
    z.object({ kind: z.literal('max') }),
  ])
  .openapi('TriggerAggregation');
export type TriggerAggregation = z.infer<typeof TriggerAggregation>;

/** When a breach may be declared: any day, only once the window reached term end, or once that many
 *  days of the term are inside the window. */
export const BreachDeclarable = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('any_time') }),
    z.object({ kind: z.literal('window_closed') }),
    z.object({ kind: z.literal('after_term_days'), days: z.number().int().positive() }),
  ])
  .openapi('BreachDeclarable');
export type BreachDeclarable = z.infer<typeof BreachDeclarable>;

export const TriggerTerms = z
  .object({
    peril: Peril,
    trigger_index: TriggerIndex,
    reading: ReadingIndex,
    aggregation: TriggerAggregation,
    comparison: Comparison,
    /** Breach at or beyond this aggregate (units of the reading). */
    threshold: z.number(),
    /** Severity 1 at or beyond this aggregate; linear between threshold and exit. */
    exit: z.number(),
    declarable: BreachDeclarable,
    /** The fraction of the window's days that must hold a reading: below it a sum or a mean is skipped
     *  (`incomplete_data`), and a past season does not count for burning cost. Absent on policies issued
     *  before it existed: the catalog's figure for the peril applies. */
    min_coverage: z.number().gt(0).max(1).optional(),
  })
  .openapi('TriggerTerms');
export type TriggerTerms = z.infer<typeof TriggerTerms>;

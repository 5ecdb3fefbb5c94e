import { z } from '../zod';
import { CalendarDate } from './calendar-date';
import { DataCoverage, SkipReason } from './data-coverage';
import { readingsOriginFields } from './provenance';

// The phases of a multi-phase cover as an evaluation shows them (TERM-SHEETS.md §2.4): one entry per
// phase beside the cover's own figures, which are its governing phase's. Single-phase covers carry none,
// so their payloads are what they always were.

/** `not_open`: its window has not begun (or its sowing date is not known yet); `open`: begun, not ended;
 *  `closed`: ended; `skipped`: begun, but its data was not enough to evaluate (`skipped_reason`). */
export const PhaseStatus = z.enum(['not_open', 'open', 'closed', 'skipped']).openapi('PhaseStatus');
export type PhaseStatus = z.infer<typeof PhaseStatus>;

const phaseFields = {
  phase: z.string(),
  /** The phase's full window for the season; the days evaluated so far end at min(window_end, as_of).
   *  Absent while a window anchored on sowing waits for the sowing date. */
  window_start: CalendarDate.optional(),
  window_end: CalendarDate.optional(),
  status: PhaseStatus,
  /** The phase's index, 6 decimals; absent when it was not evaluated. */
  observed_value: z.number().optional(),
  /** Where the phase starts to pay: its trigger, or the edge of the paying rows of a step table. */
  trigger: z.number().optional(),
  /** Where a linear phase pays its whole limit. */
  exit: z.number().optional(),
  /** At or beyond its trigger and settleable. */
  breached: z.boolean(),
  coverage: DataCoverage.optional(),
  skipped_reason: SkipReason.optional(),
};

/** A phase as `TriggerEvaluated` records it: its amount in minor units, and exactly which readings it read,
 *  so an auditor recomputes each phase alone. */
export const PhaseEvaluated = z
  .object({
    ...phaseFields,
    /** What the phase is worth, rounded as the sheet rounds money (display: the cover's amount is rounded
     *  once, from the exact sum of the phases). */
    amount_due_minor: z.number().int().nonnegative(),
    readings_from: CalendarDate.optional(),
    readings_to: CalendarDate.optional(),
    readings_used: z.number().int().nonnegative().optional(),
    /** `sha256:` + hex of the lines `date,value,revision\n` of the readings the phase read, in date order. */
    digest: z.string().optional(),
    ...readingsOriginFields,
    /** The sowing date its window is anchored on, when it is. */
    sowing_date: CalendarDate.optional(),
  })
  .openapi('PhaseEvaluated');
export type PhaseEvaluated = z.infer<typeof PhaseEvaluated>;

/** A phase as the API shows it: its amount in major units of the policy's currency. */
export const PhaseEvaluation = z
  .object({ ...phaseFields, amount_due: z.number().nonnegative() })
  .openapi('PhaseEvaluation');
export type PhaseEvaluation = z.infer<typeof PhaseEvaluation>;

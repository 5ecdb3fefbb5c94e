import type { Cover, DataCoverage, TriggerEvaluated } from '@cropcover/contracts';
import { utcDate } from '../insurance/calendar/calendar-date';
import { isCompleteEnough, minimumCoverageOf } from '../insurance/term-sheet/evaluate-cover';

// What the log records of daily monitoring (SPEC §7): an evaluation is recorded when one of these changes,
// not when only the observed value or the readings behind it move. The days between are kept by the
// monitor's round table, and the audit replays any of them from the readings and their revisions.

/** What a recorded TriggerEvaluated concluded: breached, what it is due, whether its window has closed
 *  and its coverage is complete, and each phase's status, skip reason, breach and amount due for a cover
 *  of several. Not the observed value, the readings used, the window's end so far or the coverage's
 *  counts, which move with the weather and the calendar without changing what the policy pays. */
export interface PerilConclusion {
  readonly breached: boolean;
  /** Null on evaluations recorded before amounts due were. */
  readonly amountDueMinor: number | null;
  /** The governing window's last day is before the day evaluated: nothing more can come into it. */
  readonly windowClosed: boolean;
  /** Read on at least its phase's `min_coverage` of the days so far; null when the coverage was not
   *  recorded (before coverage was) or for a cover of several phases (each phase says it). */
  readonly complete: boolean | null;
  /** Each phase's conclusion, for a cover of several phases; null for a single phase. */
  readonly phases: string | null;
}

const isComplete = (cover: Cover, phaseId: string, coverage: DataCoverage | undefined): boolean | null => {
  const phase = cover.phases.find((candidate) => candidate.id === phaseId);
  if (coverage === undefined || phase === undefined) return null;
  return (
    coverage.days_with_reading > 0 &&
    isCompleteEnough(minimumCoverageOf(phase), {
      daysWithReading: coverage.days_with_reading,
      daysInWindow: coverage.days_in_window,
    })
  );
};

/** The conclusion a TriggerEvaluated records, on the cover it evaluated. */
export const conclusionOf = (evaluated: TriggerEvaluated, cover: Cover): PerilConclusion => ({
  breached: evaluated.breached,
  amountDueMinor: evaluated.amount_due_minor ?? null,
  windowClosed: evaluated.window_end < utcDate(new Date(evaluated.evaluated_at)),
  complete: evaluated.phases === undefined ? isComplete(cover, cover.phases[0]!.id, evaluated.coverage) : null,
  phases:
    evaluated.phases === undefined
      ? null
      : JSON.stringify(
          evaluated.phases.map((phase) => [
            phase.phase,
            phase.status,
            phase.skipped_reason ?? null,
            phase.breached,
            phase.amount_due_minor,
            isComplete(cover, phase.phase, phase.coverage),
          ]),
        ),
});

/** Whether two conclusions are the same. */
export const sameConclusion = (a: PerilConclusion, b: PerilConclusion): boolean =>
  a.breached === b.breached &&
  a.amountDueMinor === b.amountDueMinor &&
  a.windowClosed === b.windowClosed &&
  a.complete === b.complete &&
  a.phases === b.phases;

import type { PolicyTriggerCourses, TriggerCourseDay } from '@cropcover/contracts';
import { addDays } from '../insurance/calendar-date';
import type { ReadingHistory } from '../insurance/reading-history';
import type { IndexObservation } from '../insurance/trigger-evaluation';
import { policyTerm } from './peril-assessment';
import { assessEachTime } from './peril-assessor';
import type { IssuedPolicy } from './policy';
import { liveTriggerWindow } from './trigger-status';

const inWindow = (readings: readonly IndexObservation[], start: string, end: string): IndexObservation[] =>
  readings.filter((reading) => reading.date >= start && reading.date <= end);

/** Each peril's reading and aggregate on each day of its window so far, the aggregate as a live
 *  evaluation as of that day would read it from these readings — the one evaluation function, day by day, so the line a person sees
 *  passes through every evaluation recorded on unchanged data. */
export const triggerCourses = (
  policy: IssuedPolicy,
  readings: ReadingHistory,
  today: string,
): PolicyTriggerCourses['covers'] => {
  const term = policyTerm(policy);
  const window = liveTriggerWindow(policy, today);
  return policy.perils.map((cover) => {
    const days: TriggerCourseDay[] = [];
    if (window !== undefined) {
      const used = inWindow(readings[cover.terms.peril] ?? [], window.start, window.end);
      // A later reading of a date replaces an earlier one, as in the evaluation.
      const valueOn = new Map(used.map((reading) => [reading.date, reading.value]));
      for (let date = window.start; date <= window.end; date = addDays(date, 1)) {
        const outcome = assessEachTime.outcome(cover.terms, used, date, term);
        days.push({ date, value: valueOn.get(date) ?? null, observed_value: outcome.observedValue });
      }
    }
    return {
      peril: cover.terms.peril,
      trigger_index: cover.terms.trigger_index,
      reading: cover.terms.reading,
      comparison: cover.terms.comparison,
      trigger: cover.terms.threshold,
      exit: cover.terms.exit,
      window_start: term.start,
      window_end: term.end,
      data_source: cover.data,
      days,
    };
  });
};

import type { PolicyTriggerCourses, TriggerCourseDay } from '@cropcover/contracts';
import { addDays } from '../insurance/calendar/calendar-date';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import type { ReadingHistory } from '../insurance/index-data/reading-history';
import { decimalOfMillionths } from '../insurance/money/decimal';
import { coverFigures } from './cover-figures';
import { assessPerils, policyTerm } from './peril-assessment';
import type { IssuedPolicy } from './policy';
import { firstThreshold, liveTriggerWindow } from './trigger-status';

/** The day's last reading, as the evaluation's own de-duplication keeps it. */
const readingOn = (readings: readonly IndexObservation[], date: string): number | null =>
  readings.findLast((reading) => reading.date === date)?.value ?? null;

/** Each cover's reading and aggregate on each day of its window so far: the aggregate is what a live
 *  evaluation as of that day shows (its governing phase's index, through the one cover evaluation), so the
 *  line a person sees passes through every evaluation recorded on unchanged data. */
export const triggerCourses = (
  policy: IssuedPolicy,
  readings: ReadingHistory,
  today: string,
): PolicyTriggerCourses['covers'] => {
  const term = policyTerm(policy);
  const window = liveTriggerWindow(policy, today);
  const dates: string[] = [];
  if (window !== undefined) for (let date = window.start; date <= window.end; date = addDays(date, 1)) dates.push(date);
  const daily = dates.map((date) => ({ date, assessed: assessPerils(policy, readings, date, term) }));
  const onTerm = assessPerils(policy, readings, term.end, term);
  return policy.perils.map((cover, index) => {
    const series = readings[cover.terms.peril] ?? [];
    const shown = firstThreshold(onTerm[index]!.outcome) ?? { threshold: 0, comparison: 'lte' as const };
    const payout = onTerm[index]!.outcome.phases.find((phase) => phase.payout !== undefined)?.payout;
    const days: TriggerCourseDay[] = daily.map(({ date, assessed }) => ({
      date,
      value: readingOn(series, date),
      observed_value: coverFigures(assessed[index]!.outcome, date)?.observedValue ?? null,
    }));
    return {
      peril: cover.terms.peril,
      trigger_index: cover.terms.index,
      reading: cover.terms.reading,
      comparison: shown.comparison,
      trigger: shown.threshold,
      exit: payout?.exit === undefined ? shown.threshold : decimalOfMillionths(payout.exit),
      window_start: term.start,
      window_end: term.end,
      data_source: cover.data,
      days,
    };
  });
};

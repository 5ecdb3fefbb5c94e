import type { PolicyTriggerCourses, TriggerCourseDay, TriggerCoursePhase } from '@cropcover/contracts';
import { addDays, earlierDate } from '../insurance/calendar/calendar-date';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import type { ReadingHistory } from '../insurance/index-data/reading-history';
import { decimalOfMillionths } from '../insurance/money/decimal';
import type { CoverOutcome, PhaseOutcome } from '../insurance/term-sheet/evaluate-cover';
import { directionOf } from '../insurance/term-sheet/payout-map';
import { coverFigures } from './cover-figures';
import { assessPerils, policyTerm } from './peril-assessment';
import type { IssuedPolicy } from './policy';
import { firstThreshold, liveTriggerWindow } from './trigger-status';

/** The day's last reading, as the evaluation's own de-duplication keeps it. */
const readingOn = (readings: readonly IndexObservation[], date: string): number | null =>
  readings.findLast((reading) => reading.date === date)?.value ?? null;

const phaseIndexOn = (phase: PhaseOutcome | undefined): number | null =>
  phase?.index === undefined ? null : decimalOfMillionths(phase.index.numerator, phase.index.denominator);

/** Each phase of a cover of several phases, its window and levels as they stand today, its index on each
 *  day of its window so far; undefined for a single phase, whose figures are the cover's. */
const phaseCourses = (
  shown: CoverOutcome,
  daily: readonly { readonly date: string; readonly outcome: CoverOutcome }[],
): TriggerCoursePhase[] | undefined =>
  shown.phases.length < 2
    ? undefined
    : shown.phases.map((phase, at) => ({
        phase: phase.phase.id,
        ...(phase.window === undefined ? {} : { window_start: phase.window.start, window_end: phase.window.end }),
        comparison: directionOf(phase.phase.payout) === 'below' ? 'lte' : 'gte',
        ...(phase.payout === undefined ? {} : { trigger: decimalOfMillionths(phase.payout.trigger) }),
        ...(phase.payout?.exit === undefined ? {} : { exit: decimalOfMillionths(phase.payout.exit) }),
        days:
          phase.window === undefined
            ? []
            : daily
                .filter(({ date }) => date >= phase.window!.start && date <= phase.window!.end)
                .map(({ date, outcome }) => ({ date, observed_value: phaseIndexOn(outcome.phases[at]) })),
      }));

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
  // Phase windows as known today: one anchored on sowing is known once the sowing date is.
  const onToday = assessPerils(policy, readings, earlierDate(today, term.end), term);
  return policy.perils.map((cover, index) => {
    const series = readings[cover.terms.peril] ?? [];
    const shown = firstThreshold(onTerm[index]!.outcome) ?? { threshold: 0, comparison: 'lte' as const };
    const payout = onTerm[index]!.outcome.phases.find((phase) => phase.payout !== undefined)?.payout;
    const phases = phaseCourses(
      onToday[index]!.outcome,
      daily.map(({ date, assessed }) => ({ date, outcome: assessed[index]!.outcome })),
    );
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
      ...(phases === undefined ? {} : { phases }),
    };
  });
};

import type { TriggerTerms } from '@cropcover/contracts';
import type { SeasonReadings } from './season-readings';
import {
  aggregateWindow,
  crossingSeverityPpm,
  isCompleteEnough,
  isDeclarableOn,
  type TriggerLevels,
  triggerLevels,
  windowAggregate,
} from './trigger-evaluation';

// Each day of a season is what daily monitoring would have evaluated as of that day (evaluateTrigger);
// these passes give the same severities without re-reading the season once per day.

/** Whether a past season may stand in the burning cost: readings on enough of its days, by the same
 *  completeness rule as a live window, whatever the aggregation (a one-reading season says nothing). */
export const isCompleteSeason = (levels: TriggerLevels, { startDay, endDay, readings }: SeasonReadings): boolean =>
  isCompleteEnough(levels, { daysWithReading: readings.length, daysInWindow: endDay - startDay + 1 });

/** The deepest 30-day mean of a season, in one pass: a window sliding over the days monitoring looked
 *  at, holding the sum and count of the readings of its last `days` days (a mean can recover). */
const deepestMeanSeverityPpm = (
  terms: TriggerTerms,
  levels: TriggerLevels,
  days: number,
  { startDay, endDay, readings }: SeasonReadings,
): number => {
  let deepest = 0;
  let sum = 0n;
  let first = 0;
  let next = 0;
  for (let day = startDay; day <= endDay; day += 1) {
    for (; next < readings.length && readings[next]![0] <= day; next += 1) sum += readings[next]![1];
    for (; first < next && readings[first]![0] <= day - days; first += 1) sum -= readings[first]![1];
    if (!isDeclarableOn(terms.declarable, startDay, endDay, day)) continue;
    const coverage = { daysWithReading: next - first, daysInWindow: Math.min(days, day - startDay + 1) };
    const mean = windowAggregate(levels, sum, coverage, true);
    if (mean.kind === 'skipped') continue;
    deepest = Math.max(deepest, crossingSeverityPpm(levels, mean.numerator, mean.denominator) ?? 0);
  }
  return deepest;
};

/** The deepest severity daily monitoring would have paid over a past season. */
export const seasonSeverityPpm = (terms: TriggerTerms, season: SeasonReadings): number => {
  const levels = triggerLevels(terms);
  if (terms.aggregation.kind === 'mean_of_last_days') {
    return deepestMeanSeverityPpm(terms, levels, terms.aggregation.days, season);
  }
  // A sum, a running maximum and a rolling-sum maximum only grow as the window grows, so the season's
  // end holds the deepest point.
  const { startDay, endDay, readings } = season;
  const observed = aggregateWindow(levels, terms.aggregation, readings, startDay, endDay);
  if (observed.kind === 'skipped' || !isDeclarableOn(terms.declarable, startDay, endDay, endDay)) return 0;
  return crossingSeverityPpm(levels, observed.numerator, observed.denominator) ?? 0;
};

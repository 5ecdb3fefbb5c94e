import type { TriggerTerms } from '@cropcover/contracts';
import { addDays } from '../insurance/calendar/calendar-date';
import { type CoverTerm, termDays } from '../insurance/calendar/cover-term';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import { minimumCoverageOf } from '../insurance/term-sheet/builtin';
import { evaluateTrigger } from './frozen-trigger';

// The burning cost's season severity as first written: evaluateTrigger once per day of the season. It
// is far too slow to price with (seconds for 30 seasons) but obviously right, so the property test
// holds the one-pass seasonSeverityPpm to it. Test and benchmark only.

/** The deepest severity daily monitoring would have paid over a past season, or undefined when the
 *  season's readings do not cover enough of its days (it cannot count as a season of history). */
export const referenceSeasonSeverityPpm = (
  terms: TriggerTerms,
  readings: readonly IndexObservation[],
  season: CoverTerm,
): number | undefined => {
  const inSeason = readings.filter((reading) => reading.date >= season.start && reading.date <= season.end);
  const daysWithReading = new Set(inSeason.map((reading) => reading.date)).size;
  // The coverage rule spelled out in floating point, far from its integer form in isCompleteEnough:
  // the property test would catch the two disagreeing.
  if (daysWithReading === 0 || daysWithReading < minimumCoverageOf(terms) * termDays(season) - 1e-9) return undefined;
  // A sum, a running maximum and a rolling-sum maximum only grow as the window grows, so the season's
  // end holds the deepest point; a 30-day mean can recover after a breach, so every day is looked at.
  if (terms.aggregation.kind !== 'mean_of_last_days') {
    return evaluateTrigger(terms, inSeason, season.end, season).severityPpm;
  }
  let deepest = 0;
  for (let asOf = season.start; asOf <= season.end; asOf = addDays(asOf, 1)) {
    deepest = Math.max(deepest, evaluateTrigger(terms, inSeason, asOf, season).severityPpm);
  }
  return deepest;
};

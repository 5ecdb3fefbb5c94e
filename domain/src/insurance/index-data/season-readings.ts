import { dayNumber } from '../calendar/calendar-date';
import type { CoverTerm } from '../calendar/cover-term';
import { pastSeasons } from '../calendar/seasons';
import { dayValuesOfRun, firstPosition, inDateOrder } from './day-values';
import type { DayValue, IndexObservation } from './index-observation';

/** A complete past season with its readings of one index: one per day, by day, at least one. */
export interface SeasonReadings {
  readonly season: CoverTerm;
  readonly startDay: number;
  readonly endDay: number;
  readonly readings: readonly DayValue[];
}

/** The term's complete past seasons that hold a reading of the index, each reading converted once: a
 *  history of 30 years is sorted once and every season cut out of it by binary search. */
export const seasonsWithReadings = (
  term: CoverTerm,
  today: string,
  readings: readonly IndexObservation[],
  yearsBack?: (years: number) => CoverTerm,
): SeasonReadings[] => {
  const sorted = inDateOrder(readings);
  const scaled = new Map<number, bigint>();
  return pastSeasons(term, today, sorted[0]?.date, yearsBack).flatMap((season) => {
    const run = sorted.slice(firstPosition(sorted, season.start, false), firstPosition(sorted, season.end, true));
    if (run.length === 0) return [];
    return [
      {
        season,
        startDay: dayNumber(season.start),
        endDay: dayNumber(season.end),
        readings: dayValuesOfRun(run, scaled),
      },
    ];
  });
};

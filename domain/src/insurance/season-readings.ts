import { dayNumber } from './calendar-date';
import type { CoverTerm } from './cover-term';
import { scaleRounded } from './decimal';
import { INDEX_PLACES } from './product-catalog';
import { pastSeasons } from './seasons';
import type { DayValue, IndexObservation } from './trigger-evaluation';

/** A complete past season with its readings of one index: one per day, by day, at least one. */
export interface SeasonReadings {
  readonly season: CoverTerm;
  readonly startDay: number;
  readonly endDay: number;
  readonly readings: readonly DayValue[];
}

const byDate = (a: IndexObservation, b: IndexObservation): number => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);

const isInDateOrder = (readings: readonly IndexObservation[]): boolean => {
  for (let at = 1; at < readings.length; at += 1) if (readings[at]!.date < readings[at - 1]!.date) return false;
  return true;
};

/** The position of the first reading dated on or after `date` (after it, when `after`). */
const firstPosition = (sorted: readonly IndexObservation[], date: string, after: boolean): number => {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const { date: at } = sorted[middle]!;
    if (at < date || (after && at === date)) low = middle + 1;
    else high = middle;
  }
  return low;
};

const DIGIT_ZERO = 48;

/** The number written at `from` … `to` (exclusive) of a date, without cutting the string. */
const digitsAt = (date: string, from: number, to: number): number => {
  let value = 0;
  for (let at = from; at < to; at += 1) value = value * 10 + date.charCodeAt(at) - DIGIT_ZERO;
  return value;
};

/** Day numbers of many sorted dates: dayNumber once per month, then the day of the month added, since
 *  parsing every date of a 30-year history would cost more than all the severities together. */
const dayCounter = (): ((date: string) => number) => {
  let month = -1;
  let monthStart = 0;
  return (date) => {
    const dateMonth = digitsAt(date, 0, 4) * 12 + digitsAt(date, 5, 7);
    if (dateMonth !== month) {
      month = dateMonth;
      monthStart = dayNumber(`${date.slice(0, 8)}01`);
    }
    return monthStart + digitsAt(date, 8, 10) - 1;
  };
};

// One value per date; a later duplicate in the list replaces an earlier one, as the upsert does (the sort
// is stable, so the last of a date's run is the latest in the list). Sensors report few distinct values
// (tenths of a millimetre, thousandths of NDVI), so each is scaled once: that halves the cost of a quote.
const dayValues = (
  run: readonly IndexObservation[],
  dayOf: (date: string) => number,
  units: Map<number, bigint>,
): DayValue[] => {
  const values: DayValue[] = [];
  for (const { date, value } of run) {
    let scaled = units.get(value);
    if (scaled === undefined) {
      scaled = scaleRounded(value, INDEX_PLACES);
      units.set(value, scaled);
    }
    const reading: DayValue = [dayOf(date), scaled];
    if (values.at(-1)?.[0] === reading[0]) values[values.length - 1] = reading;
    else values.push(reading);
  }
  return values;
};

/** The term's complete past seasons that hold a reading of the index, each reading converted once: a
 *  history of 30 years is sorted once and every season cut out of it by binary search. */
export const seasonsWithReadings = (
  term: CoverTerm,
  today: string,
  readings: readonly IndexObservation[],
): SeasonReadings[] => {
  // The read model returns readings in date order; anything else is sorted (stably) first.
  const sorted = isInDateOrder(readings) ? readings : [...readings].sort(byDate);
  const dayOf = dayCounter();
  const units = new Map<number, bigint>();
  return pastSeasons(term, today, sorted[0]?.date).flatMap((season) => {
    const run = sorted.slice(firstPosition(sorted, season.start, false), firstPosition(sorted, season.end, true));
    if (run.length === 0) return [];
    return [
      {
        season,
        startDay: dayNumber(season.start),
        endDay: dayNumber(season.end),
        readings: dayValues(run, dayOf, units),
      },
    ];
  });
};

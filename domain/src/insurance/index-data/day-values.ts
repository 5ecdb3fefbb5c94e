import { dayNumber } from '../calendar/calendar-date';
import { DECIMAL_PLACES, scaleRounded } from '../money/decimal';
import type { DayValue, IndexObservation } from './index-observation';

// Readings become day values once per list: a history of 30 years is sorted once and every season or
// term cut out of it by binary search, and each distinct value is scaled to millionths once.

const byDate = (a: IndexObservation, b: IndexObservation): number => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);

const isInDateOrder = (readings: readonly IndexObservation[]): boolean => {
  for (let at = 1; at < readings.length; at += 1) if (readings[at]!.date < readings[at - 1]!.date) return false;
  return true;
};

/** The readings in date order: as the read model returns them, else sorted (stably) first. */
export const inDateOrder = (readings: readonly IndexObservation[]): readonly IndexObservation[] =>
  isInDateOrder(readings) ? readings : [...readings].sort(byDate);

/** The position of the first reading dated on or after `date` (after it, when `after`). */
export const firstPosition = (sorted: readonly IndexObservation[], date: string, after: boolean): number => {
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

/** Each distinct reading value scaled once: sensors report few (tenths of a millimetre, thousandths of
 *  NDVI), which halves the cost of a quote. */
export type ScaledValues = Map<number, bigint>;

// One value per date; a later duplicate in the list replaces an earlier one, as the upsert does (the sort
// is stable, so the last of a date's run is the latest in the list).
export const dayValuesOfRun = (run: readonly IndexObservation[], scaled: ScaledValues): DayValue[] => {
  const values: DayValue[] = [];
  for (const { date, value } of run) {
    let units = scaled.get(value);
    if (units === undefined) {
      units = scaleRounded(value, DECIMAL_PLACES);
      scaled.set(value, units);
    }
    const reading: DayValue = [dayNumber(date), units];
    if (values.at(-1)?.[0] === reading[0]) values[values.length - 1] = reading;
    else values.push(reading);
  }
  return values;
};

/** The readings dated from `from` to `to` (both included) as day values, one per day, by day. */
export const dayValuesIn = (readings: readonly IndexObservation[], from: string, to: string): DayValue[] => {
  const sorted = inDateOrder(readings);
  const run = sorted.slice(firstPosition(sorted, from, false), firstPosition(sorted, to, true));
  return dayValuesOfRun(run, new Map());
};

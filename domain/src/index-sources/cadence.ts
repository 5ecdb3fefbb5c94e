import type { Cadence } from '@cropcover/contracts';
import { daysInMonth } from '../insurance/calendar/calendar-date';

// INDEX-DATA.md §1: a reading covers one period of its source's cadence and is dated by the period's first
// day. Dekads are days 1–10, 11–20 and 21 to the month's end; pentads 1–5, …, 26 to the end (six a month,
// as FEWS NET counts them); 8- and 16-day composites count from 1 January as MODIS does, the last period of
// a year ending on 31 December. A season has no calendar: any day may start one.

export interface CadencePeriod {
  /** The first day, which dates the reading. */
  readonly start: string;
  /** The last day, inclusive. */
  readonly end: string;
  readonly days: number;
}

const pad = (value: number): string => String(value).padStart(2, '0');
const dateText = (year: number, month: number, day: number): string => `${year}-${pad(month)}-${pad(day)}`;
const partsOf = (date: string): [number, number, number] => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return [year, month, day];
};

/** The day of the year, 1 on 1 January. */
const dayOfYear = (year: number, month: number, day: number): number => {
  let days = day;
  for (let earlier = 1; earlier < month; earlier += 1) days += daysInMonth(year, earlier);
  return days;
};

const dateOfDayOfYear = (year: number, ordinal: number): string => {
  let month = 1;
  let left = ordinal;
  while (left > daysInMonth(year, month)) {
    left -= daysInMonth(year, month);
    month += 1;
  }
  return dateText(year, month, left);
};

const daysInYear = (year: number): number => dayOfYear(year, 12, 31);

/** Periods of a month that start on fixed days, the last running to the month's end. */
const monthPeriod = (starts: readonly number[], year: number, month: number, day: number): CadencePeriod => {
  const at = starts.findLastIndex((start) => start <= day);
  const first = starts[at]!;
  const last = at + 1 < starts.length ? starts[at + 1]! - 1 : daysInMonth(year, month);
  return { start: dateText(year, month, first), end: dateText(year, month, last), days: last - first + 1 };
};

/** Composites of `length` days from 1 January; the year's last one is cut at 31 December. */
const compositePeriod = (length: number, year: number, month: number, day: number): CadencePeriod => {
  const ordinal = dayOfYear(year, month, day);
  const first = Math.floor((ordinal - 1) / length) * length + 1;
  const last = Math.min(first + length - 1, daysInYear(year));
  return { start: dateOfDayOfYear(year, first), end: dateOfDayOfYear(year, last), days: last - first + 1 };
};

const PENTAD_STARTS = [1, 6, 11, 16, 21, 26];
const DEKAD_STARTS = [1, 11, 21];

/** The period of `cadence` that holds `date` (YYYY-MM-DD). A season is the day itself, as it has no
 *  calendar of its own. */
export const periodOf = (cadence: Cadence, date: string): CadencePeriod => {
  const [year, month, day] = partsOf(date);
  switch (cadence) {
    case 'daily':
    case 'season':
      return { start: date, end: date, days: 1 };
    case 'pentad':
      return monthPeriod(PENTAD_STARTS, year, month, day);
    case 'dekad':
      return monthPeriod(DEKAD_STARTS, year, month, day);
    case '8_day':
      return compositePeriod(8, year, month, day);
    case '16_day':
      return compositePeriod(16, year, month, day);
    case 'month':
      return monthPeriod([1], year, month, day);
  }
};

/** Whether a reading may be dated `date`: only the first day of a period dates one. */
export const startsPeriod = (cadence: Cadence, date: string): boolean => periodOf(cadence, date).start === date;

/** The most days one reading of the cadence may cover, for bounds that grow with the period (rain). */
export const longestPeriodDays = (cadence: Cadence): number =>
  ({ daily: 1, pentad: 6, dekad: 11, '8_day': 8, '16_day': 16, month: 31, season: 366 })[cadence];

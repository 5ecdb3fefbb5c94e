import type { ClimatologyPeriod } from '@cropcover/contracts';
import { dateOfDay, dayNumber, daysInMonth } from '../../insurance/calendar/calendar-date';
import { monthDayOnOrAfter } from '../../insurance/term-sheet/windows';

/** One period of one year, as day numbers (both ends included). */
export interface YearPeriod {
  /** 1-based within the year. */
  readonly period: number;
  readonly first: number;
  readonly last: number;
}

const yearText = (year: number): string => String(year).padStart(4, '0');
const twoDigits = (value: number): string => String(value).padStart(2, '0');

const dekadsOf = (year: number): YearPeriod[] =>
  Array.from({ length: 36 }, (_, at) => {
    const month = Math.floor(at / 3) + 1;
    const third = at % 3;
    const firstDay = 1 + 10 * third;
    const lastDay = third < 2 ? firstDay + 9 : daysInMonth(year, month);
    const monthText = `${yearText(year)}-${twoDigits(month)}`;
    return {
      period: at + 1,
      first: dayNumber(`${monthText}-${twoDigits(firstDay)}`),
      last: dayNumber(`${monthText}-${twoDigits(lastDay)}`),
    };
  });

const monthsOf = (year: number): YearPeriod[] =>
  Array.from({ length: 12 }, (_, at) => {
    const monthText = `${yearText(year)}-${twoDigits(at + 1)}`;
    return {
      period: at + 1,
      first: dayNumber(`${monthText}-01`),
      last: dayNumber(`${monthText}-${twoDigits(daysInMonth(year, at + 1))}`),
    };
  });

/** n-day periods from 1 January, as MODIS composites are: ⌈365 / n⌉ of them every year, the last one
 *  ending on 31 December (so a leap year's last period holds one day more, or its last day). */
const dayPeriodsOf = (year: number, days: number): YearPeriod[] => {
  const january1 = dayNumber(`${yearText(year)}-01-01`);
  const december31 = dayNumber(`${yearText(year)}-12-31`);
  const count = Math.ceil(365 / days);
  return Array.from({ length: count }, (_, at) => ({
    period: at + 1,
    first: january1 + at * days,
    last: at === count - 1 ? december31 : january1 + (at + 1) * days - 1,
  }));
};

/** A window `from`–`to` starting in the year; one that wraps the year end ends in the next year, and
 *  `02-29` is the last day of February. */
const windowOf = (year: number, window: { readonly from: string; readonly to: string }): YearPeriod[] => {
  const start = monthDayOnOrAfter(window.from, `${yearText(year)}-01-01`);
  return [{ period: 1, first: dayNumber(start), last: dayNumber(monthDayOnOrAfter(window.to, start)) }];
};

/** The periods a climatology splits a year into (INDEX-DATA §3), each dated by the year it starts in. */
export const periodsOfYear = (period: ClimatologyPeriod, year: number): YearPeriod[] => {
  if (period === 'dekad') return dekadsOf(year);
  if (period === 'month') return monthsOf(year);
  if (period === '8_day') return dayPeriodsOf(year, 8);
  if (period === '16_day') return dayPeriodsOf(year, 16);
  if ('days' in period) return dayPeriodsOf(year, period.days);
  return windowOf(year, period.window);
};

/** A common year, for naming each period by its first day. */
const COMMON_YEAR = 2001;

/** Each period's first day as `MM-DD` in a common year. */
export const periodStarts = (period: ClimatologyPeriod): string[] =>
  periodsOfYear(period, COMMON_YEAR).map(({ first }) => dateOfDay(first).slice(5));

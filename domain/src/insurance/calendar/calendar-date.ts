// UTC calendar dates (`YYYY-MM-DD`) as whole day numbers, so windows and terms are integer arithmetic.

// Day numbers count from 1970-01-01 (day 0), as Date does, by the proleptic Gregorian calendar's own
// arithmetic (H. Hinnant's days_from_civil and civil_from_days): an evaluation turns thousands of dates
// into days and back, and parsing or formatting each through Date cost more than the evaluation itself.

const DIGIT_ZERO = 48;
const digitsAt = (date: string, from: number, to: number): number => {
  let value = 0;
  for (let at = from; at < to; at += 1) value = value * 10 + date.charCodeAt(at) - DIGIT_ZERO;
  return value;
};

/** The day number of a `YYYY-MM-DD` date. */
export const dayNumber = (date: string): number => {
  const month = digitsAt(date, 5, 7);
  const year = digitsAt(date, 0, 4) - (month <= 2 ? 1 : 0);
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + digitsAt(date, 8, 10) - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
};

const twoDigits = (value: number): string => (value < 10 ? `0${value}` : String(value));

/** A day number's year, month (1–12) and day of the month. */
export interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

export const civilOfDay = (dayNumberOf: number): CivilDate => {
  const shifted = dayNumberOf + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  return {
    year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day: dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1,
  };
};

/** The `YYYY-MM-DD` date of a day number. */
export const dateOfDay = (day: number): string => {
  const civil = civilOfDay(day);
  return `${String(civil.year).padStart(4, '0')}-${twoDigits(civil.month)}-${twoDigits(civil.day)}`;
};

export const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A day number on a calendar without 29 February: the leap day shares 28 February's number, so a span
 *  of dates counts as many days in every year. Blocks of n days count these (TERM-SHEETS.md §1.2), so a
 *  window of `MM-DD` dates is cut alike in every season, as its dekads and months are. */
export const commonYearDay = (day: number): number => {
  const { year, month, day: dayOfMonth } = civilOfDay(day);
  const before = year - 1;
  const leapDaysBefore = Math.floor(before / 4) - Math.floor(before / 100) + Math.floor(before / 400);
  const leapDayPassed = isLeapYear(year) && (month > 2 || (month === 2 && dayOfMonth === 29)) ? 1 : 0;
  return day - leapDaysBefore - leapDayPassed;
};

/** The number of days in a month (1–12) of a year. */
export const daysInMonth = (year: number, month: number): number =>
  month === 2 && isLeapYear(year) ? 29 : MONTH_DAYS[month - 1]!;

export const addDays = (date: string, days: number): string => dateOfDay(dayNumber(date) + days);

/** Days from `from` to `to`: 0 for the same date, negative when `to` is earlier. */
export const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);

/** The UTC calendar date of an instant: every date in the service is a UTC date. */
export const utcDate = (instant: Date): string => instant.toISOString().slice(0, 10);

/** The same month and day `years` earlier; 29 February becomes 28 February in a common year. */
export const shiftYearsBack = (date: string, years: number): string => {
  const year = Number(date.slice(0, 4)) - years;
  const monthDay = date.slice(5);
  const day = monthDay === '02-29' && !isLeapYear(year) ? '02-28' : monthDay;
  return `${String(year).padStart(4, '0')}-${day}`;
};

export const earlierDate = (a: string, b: string): string => (a <= b ? a : b);
export const laterDate = (a: string, b: string): string => (a >= b ? a : b);

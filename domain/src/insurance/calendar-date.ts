// UTC calendar dates (`YYYY-MM-DD`) as whole day numbers, so windows and terms are integer arithmetic.

const MS_PER_DAY = 86_400_000;

export const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00Z`) / MS_PER_DAY;

export const dateOfDay = (day: number): string => new Date(day * MS_PER_DAY).toISOString().slice(0, 10);

export const addDays = (date: string, days: number): string => dateOfDay(dayNumber(date) + days);

/** Days from `from` to `to`: 0 for the same date, negative when `to` is earlier. */
export const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);

/** The UTC calendar date of an instant: every date in the service is a UTC date. */
export const utcDate = (instant: Date): string => instant.toISOString().slice(0, 10);

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** The same month and day `years` earlier; 29 February becomes 28 February in a common year. */
export const shiftYearsBack = (date: string, years: number): string => {
  const year = Number(date.slice(0, 4)) - years;
  const monthDay = date.slice(5);
  const day = monthDay === '02-29' && !isLeapYear(year) ? '02-28' : monthDay;
  return `${String(year).padStart(4, '0')}-${day}`;
};

export const earlierDate = (a: string, b: string): string => (a <= b ? a : b);
export const laterDate = (a: string, b: string): string => (a >= b ? a : b);

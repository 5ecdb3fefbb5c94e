import type { Blocks, DateRef, MonthDay, Sowing, TermSheet } from '@cropcover/contracts';
import {
  addDays,
  civilOfDay,
  commonYearDay,
  dateOfDay,
  dayNumber,
  daysInMonth,
  isLeapYear,
} from '../calendar/calendar-date';
import { type CoverTerm, termYearsBack } from '../calendar/cover-term';
import type { DayValue } from '../index-data/index-observation';
import { millionthsOf } from '../money/decimal';

// Where a phase reads (TERM-SHEETS.md §1.3 step 1): dates of the sheet resolved against the term — `MM-DD`
// at its first occurrence on or after term start, anchors plus days — and the blocks a window splits into.

const dateInYear = (monthDay: MonthDay, year: number): string => {
  const day = monthDay === '02-29' && !isLeapYear(year) ? '02-28' : monthDay;
  return `${String(year).padStart(4, '0')}-${day}`;
};

/** `MM-DD` at its first occurrence on or after `from`; `02-29` is the last day of February. */
export const monthDayOnOrAfter = (monthDay: MonthDay, from: string): string => {
  const year = Number(from.slice(0, 4));
  const date = dateInYear(monthDay, year);
  return date >= from ? date : dateInYear(monthDay, year + 1);
};

/** A date of the sheet on this term; undefined while it is anchored on a sowing date not known yet. */
export const resolveDate = (ref: DateRef, term: CoverTerm, sowingDate: string | undefined): string | undefined => {
  if (typeof ref === 'string') return monthDayOnOrAfter(ref, term.start);
  switch (ref.anchor) {
    case 'term_start':
      return ref.days === 0 ? term.start : addDays(term.start, ref.days);
    case 'term_end':
      return ref.days === 0 ? term.end : addDays(term.end, ref.days);
    case 'sowing':
      return sowingDate === undefined ? undefined : addDays(sowingDate, ref.days);
  }
};

export const isSowingAnchored = (window: { readonly from: DateRef; readonly to: DateRef }): boolean =>
  [window.from, window.to].some((ref) => typeof ref !== 'string' && ref.anchor === 'sowing');

/** Dates both included, and their day numbers. */
export interface DayWindow {
  readonly start: string;
  readonly end: string;
  readonly startDay: number;
  readonly endDay: number;
}

export const dayWindow = (start: string, end: string): DayWindow => ({
  start,
  end,
  startDay: dayNumber(start),
  endDay: dayNumber(end),
});

/** A window of the sheet on this term; undefined while anchored on a sowing date not known yet. */
export const resolveWindow = (
  window: { readonly from: DateRef; readonly to: DateRef },
  term: CoverTerm,
  sowingDate: string | undefined,
): DayWindow | undefined => {
  const start = resolveDate(window.from, term, sowingDate);
  const end = resolveDate(window.to, term, sowingDate);
  return start === undefined || end === undefined ? undefined : dayWindow(start, end);
};

/** A sheet's fixed season in the year it starts: to the first `to` after `from` (so `07-01` to `07-01`
 *  is a year and a day, too long across a 29 February). */
export const seasonStartingIn = (
  season: { readonly from: MonthDay; readonly to: MonthDay },
  year: number,
): CoverTerm => {
  const start = dateInYear(season.from, year);
  return { start, end: monthDayOnOrAfter(season.to, addDays(start, 1)) };
};

/** The first season of the sheet starting on or after `from`. */
export const seasonStartingOnOrAfter = (
  season: { readonly from: MonthDay; readonly to: MonthDay },
  from: string,
): CoverTerm => seasonStartingIn(season, Number(monthDayOnOrAfter(season.from, from).slice(0, 4)));

/** The last day of a block of `days` days starting on `blockStart`, counted without 29 February: a leap
 *  day joins the block holding 28 February (as it joins February's last dekad and February), so a
 *  PRF-style Jan–Feb block of 59 days is 60 days long in a leap year. */
const daysBlockEndDay = (days: number, blockStart: number): number => {
  const lastCommonDay = commonYearDay(blockStart) + days - 1;
  let end = blockStart + days - 1;
  while (commonYearDay(end) < lastCommonDay) end += 1;
  return commonYearDay(end + 1) === lastCommonDay ? end + 1 : end;
};

/** The last day of `months` calendar months from `blockStart`'s month (a PRF two-month interval): leap
 *  days are in it as the calendar has them. */
const monthsBlockEndDay = (months: number, blockStart: number): number => {
  const civil = civilOfDay(blockStart);
  let end = blockStart - civil.day;
  for (let month = 0; month < months; month += 1) {
    const at = civil.month - 1 + month;
    end += daysInMonth(civil.year + Math.floor(at / 12), (at % 12) + 1);
  }
  return end;
};

/** Blocks cut by the calendar; `source_period` blocks are the source's own periods (`source-periods.ts`). */
export type CalendarBlocks = Exclude<Blocks['by'], 'source_period'>;

/** The last day of the block holding `day` (`days` and `months` blocks: the one starting on `blockStart`).
 *  Day numbers, not dates: an evaluation finds every phase's blocks again. */
const blockEndDay = (by: CalendarBlocks, day: number, blockStart: number): number => {
  if (typeof by !== 'string') {
    return 'days' in by ? daysBlockEndDay(by.days, blockStart) : monthsBlockEndDay(by.months, blockStart);
  }
  const civil = civilOfDay(day);
  const monthStart = day - civil.day + 1;
  if (by === 'month' || civil.day > 20) return monthStart + daysInMonth(civil.year, civil.month) - 1;
  return monthStart + (civil.day > 10 ? 19 : 9);
};

/** The season `years` before a term, as backtests and the burning cost judge it (TERM-SHEETS.md §1.3): a
 *  sheet's fixed season is that season in the earlier year — `01-01` to `02-29` is all of January and
 *  February every year, 29 February included —, any other term the same dates shifted back, 29 February
 *  to 28 February. */
export const seasonsBackOf =
  (sheet: Pick<TermSheet, 'season'>, term: CoverTerm) =>
  (years: number): CoverTerm =>
    sheet.season === undefined || years === 0
      ? termYearsBack(term, years)
      : seasonStartingIn(sheet.season, Number(term.start.slice(0, 4)) - years);

/** The day offsets, from the window's first day, of each block's last day: dekads end on the 10th, the
 *  20th and the month's last day, months on their last day, `days` blocks every so many days (29 February
 *  not counted) from the window's start. A window off those boundaries cuts its first and last blocks
 *  short. */
export const blockEndOffsets = (by: CalendarBlocks, window: DayWindow): number[] => {
  const ends: number[] = [];
  for (let start = window.startDay; start <= window.endDay; ) {
    const end = Math.min(blockEndDay(by, start, start), window.endDay);
    ends.push(end - window.startDay);
    start = end + 1;
  }
  return ends;
};

/** Whether the window starts and ends on block boundaries. */
export const isBlockAligned = (by: CalendarBlocks, window: DayWindow): boolean => {
  if (typeof by !== 'string' && 'days' in by) {
    return (commonYearDay(window.endDay) - commonYearDay(window.startDay) + 1) % by.days === 0;
  }
  if (typeof by !== 'string') {
    // Intervals of n months from the window's first day, which must open a month, to the last one's end.
    if (civilOfDay(window.startDay).day !== 1) return false;
    let end = window.startDay - 1;
    while (end < window.endDay) end = monthsBlockEndDay(by.months, end + 1);
    return end === window.endDay;
  }
  const startsBlock = blockEndDay(by, window.startDay - 1, window.startDay - 1) === window.startDay - 1;
  return startsBlock && blockEndDay(by, window.endDay, window.endDay) === window.endDay;
};

/** Where a cover's sowing stands as of a day: found, fallen back to the end of its range, or pending. */
export interface SowingDate {
  /** The sowing date; undefined while pending. */
  readonly date: string | undefined;
  /** The range it was looked for in: [from, to] of the sheet on this term. */
  readonly range: DayWindow;
}

/** The sowing date as of `asOfDay` (TERM-SHEETS.md §1.3 step 1): the first day d of [from, to] whose rain
 *  over the `rolling_days` days ending on d (within the range; a day without a reading adds nothing)
 *  reaches `at_least`; else `to` once it has passed; pending before that. */
export const sowingDateAsOf = (
  sowing: Sowing,
  term: CoverTerm,
  rain: readonly DayValue[],
  asOfDay: number,
): SowingDate => {
  const range = dayWindow(resolveDate(sowing.from, term, undefined)!, resolveDate(sowing.to, term, undefined)!);
  const atLeast = millionthsOf(sowing.at_least);
  const lastDay = Math.min(range.endDay, asOfDay);
  let sum = 0n;
  let first = 0;
  let next = 0;
  while (next < rain.length && rain[next]![0] < range.startDay) next += 1;
  first = next;
  for (let day = range.startDay; day <= lastDay; day += 1) {
    for (; next < rain.length && rain[next]![0] <= day; next += 1) sum += rain[next]![1];
    for (; first < next && rain[first]![0] <= day - sowing.rolling_days; first += 1) sum -= rain[first]![1];
    if (sum >= atLeast) return { date: dateOfDay(day), range };
  }
  return { date: asOfDay >= range.endDay ? range.end : undefined, range };
};

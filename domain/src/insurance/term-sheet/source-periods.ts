import type { Blocks, Cadence, Cover } from '@cropcover/contracts';
import { DomainError } from '../../domain-error';
import { periodOf } from '../../index-sources/cadence';
import { dateOfDay, dayNumber } from '../calendar/calendar-date';
import type { CoverTerm } from '../calendar/cover-term';
import { blockEndOffsets, type DayWindow, isSowingAnchored, resolveWindow } from './windows';

// A phase over a non-daily source (TERM-SHEETS.md §5, INDEX-DATA §1) reads periods, not days: a period
// belongs to the window when its first day — the date its reading carries — lies in it; completeness
// counts periods; `blocks.by: "source_period"` keeps each period a block, and calendar blocks group the
// periods that start in them. Over a daily source a period is a day, and every rule is v1's.

/** The days one period or block spans, both ends included. */
export interface SpanDays {
  readonly first: number;
  readonly last: number;
}

/** Whether a cadence's readings are one a day (a season has no calendar: any day may start one, so it is
 *  read as days, as before cadences were named). */
export const readsDays = (cadence: Cadence | null | undefined): boolean =>
  cadence === undefined || cadence === null || cadence === 'daily' || cadence === 'season';

const periodsIn = (cadence: Cadence, window: DayWindow): SpanDays[] => {
  const periods: SpanDays[] = [];
  const holding = periodOf(cadence, dateOfDay(window.startDay));
  let first = dayNumber(holding.start) < window.startDay ? dayNumber(holding.end) + 1 : window.startDay;
  while (first <= window.endDay) {
    const last = dayNumber(periodOf(cadence, dateOfDay(first)).end);
    periods.push({ first, last });
    first = last + 1;
  }
  return periods;
};

const known = new Map<string, readonly SpanDays[]>();
/** Enough for every window of every product a monitor pass or a 30-season backtest reads. */
const KEPT_WINDOWS = 4096;

/** The periods of a non-daily source that belong to a window, in order; undefined for a daily source. Kept
 *  per window: every policy of a product reads the same windows. */
export const sourcePeriodsIn = (
  cadence: Cadence | null | undefined,
  window: DayWindow,
): readonly SpanDays[] | undefined => {
  if (readsDays(cadence)) return undefined;
  const key = `${cadence}:${window.startDay}:${window.endDay}`;
  let periods = known.get(key);
  if (periods === undefined) {
    if (known.size >= KEPT_WINDOWS) known.clear();
    periods = periodsIn(cadence!, window);
    known.set(key, periods);
  }
  return periods;
};

/** A block of a window: the days it spans and the offset of its last reading among the window's readings
 *  (days for a daily source, periods for another). */
export interface BlockSpan extends SpanDays {
  readonly endOffset: number;
}

/**
 * The blocks of a window: calendar blocks on its days (a daily source), or the periods of a non-daily
 * source — each its own block with `source_period`, else grouped into the calendar blocks they start in,
 * a block no period starts in left out (quote and issue refuse it: `period_mismatch`).
 */
export const blockSpansOf = (
  by: Blocks['by'],
  window: DayWindow,
  periods: readonly SpanDays[] | undefined,
): BlockSpan[] => {
  if (by === 'source_period') {
    if (periods !== undefined) return periods.map((period, at) => ({ ...period, endOffset: at }));
    return Array.from({ length: window.endDay - window.startDay + 1 }, (_, at) => ({
      first: window.startDay + at,
      last: window.startDay + at,
      endOffset: at,
    }));
  }
  const spans: BlockSpan[] = [];
  let first = window.startDay;
  let taken = 0;
  for (const offset of blockEndOffsets(by, window)) {
    const last = window.startDay + offset;
    if (periods === undefined) {
      spans.push({ first, last, endOffset: offset });
    } else {
      let end = taken;
      while (end < periods.length && periods[end]!.first <= last) end += 1;
      if (end > taken) spans.push({ first, last, endOffset: end - 1 });
      taken = end;
    }
    first = last + 1;
  }
  return spans;
};

const mismatch = (detail: string, location: string): DomainError =>
  new DomainError('rejected', 'period_mismatch', detail, [{ path: 'location', message: detail, location }]);

/**
 * What quote and issue check of a cover against its source's cadence (TERM-SHEETS.md §5): `source_period`
 * blocks need a non-daily source; a non-daily one takes no sowing (a rolling sum of days), no `months`
 * intervals, and no calendar block that no period of it starts in.
 */
export const checkSourcePeriods = (
  cover: Cover,
  term: CoverTerm,
  cadence: Cadence | null | undefined,
  location: string,
): void => {
  const daily = readsDays(cadence);
  if (!daily && cover.sowing !== undefined) {
    throw mismatch(`${cover.peril}'s sowing reads days; its source gives one value per ${cadence} period`, location);
  }
  for (const phase of cover.phases) {
    const by = phase.blocks?.by;
    if (by === undefined) continue;
    if (by === 'source_period' && daily) {
      throw mismatch(`phase ${phase.id}'s blocks are the source's periods; its source is daily`, location);
    }
    if (daily || by === 'source_period') continue;
    if (typeof by !== 'string' && 'months' in by) {
      throw mismatch(`phase ${phase.id}'s blocks are calendar months; its source gives ${cadence} periods`, location);
    }
    if (isSowingAnchored(phase.window)) continue;
    const window = resolveWindow(phase.window, term, undefined)!;
    const periods = sourcePeriodsIn(cadence, window)!;
    const days = blockEndOffsets(by, window).length;
    if (blockSpansOf(by, window, periods).length < days) {
      throw mismatch(`phase ${phase.id} has a block no ${cadence} period of its source starts in`, location);
    }
  }
};

import {
  type DateRef,
  type IndexAggregate,
  type MonthDay,
  type PayoutMap,
  Peril,
  type Phase,
  READING_BOUNDS,
  ReadingIndex,
  TERM_SHEET_SCHEMA,
  TERM_SHEET_SCHEMA_V2,
  type TermSheet,
  versionTwoFeatures,
} from '@cropcover/contracts';
import fc from 'fast-check';
import { addDays, dateOfDay, dayNumber } from '../insurance/calendar/calendar-date';
import type { CoverTerm } from '../insurance/calendar/cover-term';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import {
  blockEndOffsets,
  type CalendarBlocks,
  monthDayOnOrAfter,
  resolveWindow,
  seasonStartingIn,
} from '../insurance/term-sheet/windows';
import { blocksWith, dayTransform, decimal } from './sheet-arbitraries';

// Term sheets over any part of the year, for properties that must hold in every season (1981–2100, leap
// years included): fixed seasons written in `MM-DD` (February's end as `02-28` or `02-29`, seasons across a
// new year), and seasonless sheets whose windows are anchored on a term, with offsets. Blocks of dekads,
// months or n days carry one figure per block of the window as resolved in a season of the year the sheet
// is drawn for; whether a drawn sheet keeps every rule is for validation to say (tests keep those it
// accepts).

/** The year a fixed season is drawn in: its windows and lists are sized on that season. */
const DRAWN_IN = [2027, 2028] as const;

/** A date's `MM-DD`, 28 February sometimes written `02-29` (February's last day in every year). */
const monthDayOf = (date: string, lastOfFebruary: boolean): MonthDay =>
  (date.endsWith('-02-28') && lastOfFebruary ? '02-29' : date.slice(5)) as MonthDay;

/** A day offset in [0, days): mostly on a month's or dekad's first day or last day, else anywhere. */
const offsetIn = (start: string, days: number) =>
  fc.integer({ min: 0, max: days - 1 }).chain((offset) => {
    const date = addDays(start, offset);
    const dayOfMonth = Number(date.slice(8));
    const toFirst = offset - (dayOfMonth - 1);
    const toDekad = offset - ((dayOfMonth - 1) % 10);
    return fc.constantFrom(...[offset, toFirst, toDekad].filter((at) => at >= 0));
  });

/** Blocks over a window of `days` days: dekads, months, or n days with n often a divisor of the window. */
const blocksBy = (days: number): fc.Arbitrary<CalendarBlocks> =>
  fc.oneof(
    fc.constantFrom<CalendarBlocks>('dekad', 'month', { days }),
    fc.integer({ min: 1, max: 6 }).map((parts) => ({ days: Math.max(1, Math.floor(days / parts)) })),
    fc.integer({ min: 1, max: 60 }).map((n) => ({ days: n })),
    fc.integer({ min: 1, max: 4 }).map((months) => ({ months })),
  );

/** A level: fixed, or per window day (the levels of one map may mix both, ordered on the window's days). */
const level = (value: number, days: number, perDay: boolean) =>
  perDay ? { per_window_day: Math.round((value / days) * 1000) / 1000 } : value;

const payoutOf = (direction: 'below' | 'above', days: number, high: number): fc.Arbitrary<PayoutMap> =>
  fc.oneof(
    fc
      .tuple(decimal(0, high), decimal(0, high), fc.boolean(), fc.boolean())
      .filter(([a, b]) => a !== b)
      .map(([a, b, perDayTrigger, perDayExit]) => {
        const [trigger, exit] =
          direction === 'below' ? [Math.max(a, b), Math.min(a, b)] : [Math.min(a, b), Math.max(a, b)];
        return {
          linear: { direction, trigger: level(trigger, days, perDayTrigger), exit: level(exit, days, perDayExit) },
        };
      }),
    decimal(0, high).map((trigger) => ({ tick: { direction, trigger, per_unit: 0.01 } })),
    decimal(0, high).map((edge) => ({
      steps: [direction === 'below' ? { to: edge, pay: 1 } : { from: edge, pay: 1 }],
    })),
  );

/** A phase over a window: `days` long in the season it is drawn for, its blocks cut there. */
const phaseOf = (
  id: string,
  window: { readonly from: DateRef; readonly to: DateRef },
  reading: ReadingIndex,
  resolved: { readonly start: string; readonly days: number; readonly startDay: number; readonly endDay: number },
): fc.Arbitrary<Phase> => {
  const { days } = resolved;
  const high = READING_BOUNDS[reading].max * Math.min(days, 40);
  return fc
    .record({
      day: dayTransform(reading),
      by: fc.option(blocksBy(days), { nil: undefined }),
      direction: fc.constantFrom('below', 'above' as const),
      minCoverage: fc.constantFrom(0.5, 0.9, 1),
      settle: fc.constantFrom('any_time' as const, 'window_closed' as const),
    })
    .chain(({ day, by, direction, minCoverage, settle }) => {
      const count =
        by === undefined
          ? 0
          : blockEndOffsets(by, {
              start: resolved.start,
              end: '',
              startDay: resolved.startDay,
              endDay: resolved.endDay,
            }).length;
      const spanDays = fc.integer({ min: 1, max: Math.min(30, days) });
      const aggregate: fc.Arbitrary<IndexAggregate> =
        by !== undefined
          ? fc.constantFrom('sum', 'mean', 'max', 'min' as const)
          : fc.oneof(
              fc.constantFrom<IndexAggregate>('sum', 'mean', 'max', 'min', 'longest_run'),
              fc
                .record({
                  days: spanDays,
                  stat: fc.constantFrom('sum', 'mean' as const),
                  pick: fc.constantFrom('max', 'min', 'last' as const),
                })
                .map((rolling) => ({ rolling })),
              // Version 2: events, and over a predicate paying above, event dates.
              fc
                .record({ days: spanDays, total_at_least: decimal(0, READING_BOUNDS[reading].max * 3) })
                .map((events) => ({ events })),
              ...(day !== undefined && 'is' in day
                ? [
                    spanDays.map((min_days): IndexAggregate => ({ events: { min_days } })),
                    ...(direction === 'above'
                      ? [
                          {
                            arbitrary: fc.constantFrom<IndexAggregate>({ first_day: true }, { last_day: true }),
                            weight: 3,
                          },
                        ]
                      : []),
                  ]
                : []),
            );
      return fc
        .record({
          blocks: by === undefined ? fc.constant(undefined) : blocksWith(by, count),
          aggregate,
          payout: payoutOf(direction, days, high),
        })
        .map(({ blocks, aggregate, payout }): Phase => {
          const summed = aggregate === 'sum' || aggregate === 'mean' || blocks !== undefined;
          return {
            id,
            window,
            ...(day === undefined ? {} : { day }),
            ...(blocks === undefined ? {} : { blocks }),
            aggregate,
            payout,
            limit: 1,
            settle: direction === 'below' && summed ? 'window_closed' : settle,
            min_coverage: minCoverage,
          };
        });
    });
};

/** The days of a resolved window, for sizing a phase. */
const resolvedOn = (window: { readonly from: DateRef; readonly to: DateRef }, term: CoverTerm) => {
  const found = resolveWindow(window, term, undefined)!;
  return {
    start: found.start,
    days: found.endDay - found.startDay + 1,
    startDay: found.startDay,
    endDay: found.endDay,
  };
};

/** A sheet in version 1 when it says nothing only version 2 can, else in version 2. */
const sheetOf = (covers: TermSheet['covers'], season?: TermSheet['season']): TermSheet => ({
  schema: versionTwoFeatures({ covers }).length === 0 ? TERM_SHEET_SCHEMA : TERM_SHEET_SCHEMA_V2,
  name: 'a sheet of any season',
  ...(season === undefined ? {} : { season }),
  amounts: { unit: 'share' },
  covers,
});

const coverOf = (
  peril: Peril,
  reading: ReadingIndex,
  phases: readonly Phase[],
  concurrent = false,
): TermSheet['covers'][number] => ({
  peril,
  ...(concurrent ? { phase_mode: 'concurrent' as const } : {}),
  index: `${peril}_index`,
  reading,
  limit: 1,
  base_rate: 0.01,
  exposure: 'season',
  phases: [...phases],
});

/** A sheet with a fixed season of 20–366 days starting anywhere in the year, one cover of one or two
 *  phases whose windows are `MM-DD` dates within it. */
const seasonSheet: fc.Arbitrary<TermSheet> = fc
  .record({
    drawnIn: fc.constantFrom(...DRAWN_IN),
    startDay: fc.integer({ min: 0, max: 364 }),
    length: fc.integer({ min: 20, max: 366 }),
    lastOfFebruary: fc.boolean(),
    peril: fc.constantFrom(...Peril.options),
    reading: fc.constantFrom(...ReadingIndex.options),
    concurrent: fc.boolean(),
  })
  .chain(({ drawnIn, startDay, length, lastOfFebruary, peril, reading, concurrent }) => {
    const start = addDays(`${drawnIn}-01-01`, startDay);
    const season = {
      from: monthDayOf(start, lastOfFebruary),
      to: monthDayOf(addDays(start, length - 1), lastOfFebruary),
    };
    const term = seasonStartingIn(season, drawnIn);
    const days = dayNumber(term.end) - dayNumber(term.start) + 1;
    // Sequential phases cut the season in order; concurrent ones are drawn each on its own, overlapping.
    // A season a year and a day long ends on its first day's `MM-DD`, which resolves to the first day: cuts
    // are drawn only where a window's `MM-DD` names the day it was cut on.
    const namesItsDay = (at: number) =>
      monthDayOnOrAfter(monthDayOf(addDays(term.start, at), lastOfFebruary), term.start) === addDays(term.start, at);
    const cutsOf = (count: number) =>
      fc
        .uniqueArray(offsetIn(term.start, days).filter(namesItsDay), { minLength: count, maxLength: count })
        .map((cuts) => {
          const sorted = [...cuts].sort((a, b) => a - b);
          return sorted.slice(0, Math.floor(sorted.length / 2) * 2);
        });
    const windowCuts = concurrent
      ? fc.array(cutsOf(2), { minLength: 1, maxLength: 3 }).map((pairs) => pairs.flat())
      : fc.integer({ min: 2, max: 4 }).chain(cutsOf);
    return windowCuts.chain((cuts) => {
      const windows = cuts.flatMap((at, index) =>
        index % 2 === 0
          ? [
              {
                from: monthDayOf(addDays(term.start, at), lastOfFebruary),
                to: monthDayOf(addDays(term.start, cuts[index + 1]!), lastOfFebruary),
              },
            ]
          : [],
      );
      return fc
        .tuple(...windows.map((window, at) => phaseOf(`phase-${at + 1}`, window, reading, resolvedOn(window, term))))
        .map((phases) => sheetOf([coverOf(peril, reading, phases, concurrent)], season));
    });
  });

/** A seasonless sheet and a term it is sold on: one phase from the term's start plus an offset to its
 *  start plus a later one, or to its end. */
const termSheet: fc.Arbitrary<{ readonly sheet: TermSheet; readonly term: CoverTerm }> = fc
  .record({
    startDay: fc.integer({ min: dayNumber('1985-01-01'), max: dayNumber('2100-06-30') }),
    length: fc.integer({ min: 20, max: 366 }),
    peril: fc.constantFrom(...Peril.options),
    reading: fc.constantFrom(...ReadingIndex.options),
    toEnd: fc.boolean(),
  })
  .chain(({ startDay, length, peril, reading, toEnd }) => {
    const term = { start: dateOfDay(startDay), end: dateOfDay(startDay + length - 1) };
    return fc
      .tuple(fc.integer({ min: 0, max: length - 2 }), fc.integer({ min: 0, max: length - 1 }))
      .map(([a, b]): [number, number] => [Math.min(a, b), Math.max(Math.max(a, b), Math.min(a, b) + 1)])
      .chain(([from, to]) => {
        const window = {
          from: { anchor: 'term_start' as const, days: from },
          to: toEnd ? { anchor: 'term_end' as const, days: 0 } : { anchor: 'term_start' as const, days: to },
        };
        return phaseOf('phase-1', window, reading, resolvedOn(window, term)).map((phase) => ({
          sheet: sheetOf([coverOf(peril, reading, [phase])]),
          term,
        }));
      });
  });

/** A drawn sheet and the term it is sold on (undefined for a fixed season: each year's season is). */
export const anySeasonSheetArbitrary: fc.Arbitrary<{ readonly sheet: TermSheet; readonly term?: CoverTerm }> = fc.oneof(
  seasonSheet.map((sheet) => ({ sheet })),
  termSheet,
);

/** Readings of `reading` on the days of `from`..`to`, from a seed: values across its bounds, some days
 *  missing. */
export const readingsFrom = (reading: ReadingIndex, from: string, to: string, seed: number): IndexObservation[] => {
  const { min, max } = READING_BOUNDS[reading];
  const readings: IndexObservation[] = [];
  let state = seed >>> 0 || 1;
  for (let day = dayNumber(from); day <= dayNumber(to); day += 1) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    if (state % 13 === 0) continue;
    const spread = state % 3 === 0 ? max - min : Math.min(max - min, 10);
    readings.push({
      date: dateOfDay(day),
      value: Math.round((min + (((state >>> 8) % 1000) * spread) / 1000) * 100) / 100,
      revision: 1,
    });
  }
  return readings;
};

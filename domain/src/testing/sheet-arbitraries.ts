import {
  type Blocks,
  type Cover,
  type DayTransform,
  type IndexAggregate,
  Peril,
  type Phase,
  READING_BOUNDS,
  ReadingIndex,
  type Settle,
  type SheetAmounts,
  type StepRow,
  TERM_SHEET_SCHEMA,
  TERM_SHEET_SCHEMA_V2,
  type TermSheet,
  versionTwoFeatures,
} from '@cropcover/contracts';
import fc from 'fast-check';
import { addDays } from '../insurance/calendar/calendar-date';
import type { IndexObservation } from '../insurance/index-data/index-observation';

// Random valid term sheets for property tests: a season of April to September, each cover's phases
// whole months one after the other, every concept of TERM-SHEETS.md §1.2 but sowing (a gap in a sowing
// range moves the sowing date, which no fill rule can keep from moving a payout: see docs/decisions.md).

export const SEASON = { from: '04-01', to: '09-30' } as const;
export const SEASON_2026 = { start: '2026-04-01', end: '2026-09-30' } as const;
const MONTHS = ['04', '05', '06', '07', '08', '09'] as const;
const LAST_DAY: Record<(typeof MONTHS)[number], string> = {
  '04': '30',
  '05': '31',
  '06': '30',
  '07': '31',
  '08': '31',
  '09': '30',
};
const DAYS_IN: Record<(typeof MONTHS)[number], number> = { '04': 30, '05': 31, '06': 30, '07': 31, '08': 31, '09': 30 };

/** A decimal of at most `places` decimals in [min, max]. */
export const decimal = (min: number, max: number, places = 2) =>
  fc
    .integer({ min: Math.ceil(min * 10 ** places), max: Math.floor(max * 10 ** places) })
    .map((units) => units / 10 ** places);

/** A sheet amount of the unit: a share (≤ 6 decimals) or whole minor units of the basis, in (0, cap]. */
const amount = (amounts: SheetAmounts, cap: number) =>
  amounts.unit === 'share'
    ? fc.integer({ min: 1, max: Math.round(cap * 1000) }).map((thousandths) => thousandths / 1000)
    : fc.integer({ min: 1, max: cap });

export const dayTransform = (reading: ReadingIndex): fc.Arbitrary<DayTransform | undefined> => {
  const { min, max } = READING_BOUNDS[reading];
  return fc.oneof(
    fc.constant(undefined),
    decimal(min, max).map((cap) => ({ cap })),
    fc
      .record({ op: fc.constantFrom('lt', 'lte', 'gt', 'gte' as const), value: decimal(min, max) })
      .map((is) => ({ is })),
    fc.oneof(
      decimal(min, max).map((below) => ({ exceedance: { below } })),
      decimal(min, max).map((above) => ({ exceedance: { above } })),
    ),
  );
};

/** A block table over `count` blocks of `by`: one normal (and sd), weight per block. */
export const blocksWith = (by: Blocks['by'], count: number): fc.Arbitrary<Blocks> => {
  const list = (arbitrary: fc.Arbitrary<number>) => fc.array(arbitrary, { minLength: count, maxLength: count });
  return fc.record(
    {
      by: fc.constant(by),
      stat: fc.constantFrom('sum', 'mean' as const),
      vs_normal: fc.oneof(
        list(decimal(0.5, 200)).map((normal) => ({ as: 'percent' as const, normal })),
        list(decimal(-50, 200)).map((normal) => ({ as: 'difference' as const, normal })),
        fc
          .tuple(list(decimal(-50, 200)), list(decimal(0.5, 50)))
          .map(([normal, sd]) => ({ as: 'z' as const, normal, sd })),
      ),
      cap: decimal(-50, 300),
      weights: list(decimal(0, 2)),
      round: fc.integer({ min: 0, max: 3 }),
    },
    { requiredKeys: ['by'] },
  );
};

const blocksOf = (months: readonly (typeof MONTHS)[number][]): fc.Arbitrary<Blocks> =>
  fc
    .constantFrom<'month' | 'dekad'>('month', 'dekad')
    .chain((by) => blocksWith(by, by === 'month' ? months.length : months.length * 3));

const aggregateOf = (hasBlocks: boolean, predicate: boolean, days: number): fc.Arbitrary<IndexAggregate> =>
  hasBlocks
    ? fc.constantFrom('sum', 'mean', 'max', 'min' as const)
    : fc.oneof(
        fc.constantFrom<IndexAggregate>('sum', 'mean', 'max', 'min', ...(predicate ? (['longest_run'] as const) : [])),
        fc
          .record({
            days: fc.integer({ min: 1, max: Math.min(30, days) }),
            stat: fc.constantFrom('sum', 'mean' as const),
            pick: fc.constantFrom('max', 'min', 'last' as const),
          })
          .map((rolling) => ({ rolling })),
      );

/** Trigger and exit in the index's plausible range, ordered for the direction: fixed, or per window day. */
const levelPair = (direction: 'below' | 'above', low: number, high: number, days: number) =>
  fc
    .tuple(decimal(low, high), decimal(low, high), fc.boolean())
    .filter(([a, b]) => a !== b)
    .map(([a, b, perDay]) => {
      const [trigger, exit] =
        direction === 'below' ? [Math.max(a, b), Math.min(a, b)] : [Math.min(a, b), Math.max(a, b)];
      // Per day: the same levels spread over the window, to 3 decimals.
      const perWindowDay = (level: number) => ({ per_window_day: Math.round((level / days) * 1000) / 1000 });
      return perDay ? { trigger: perWindowDay(trigger), exit: perWindowDay(exit) } : { trigger, exit };
    })
    .filter(({ trigger, exit }) => JSON.stringify(trigger) !== JSON.stringify(exit));

const stepsOf = (amounts: SheetAmounts, limit: number, low: number, high: number): fc.Arbitrary<StepRow[]> =>
  fc
    .tuple(
      fc.uniqueArray(decimal(low, high), { minLength: 1, maxLength: 4 }),
      fc.boolean(),
      fc.array(amount(amounts, limit), { minLength: 4, maxLength: 4 }),
    )
    .map(([edges, below, pays]) => {
      const sorted = [...edges].sort((a, b) => a - b);
      const ascending = [...pays].sort((a, b) => a - b).slice(0, sorted.length);
      // Open below: pays most at the bottom; open above: most at the top.
      return below
        ? sorted.map((edge, at) => ({
            ...(at === 0 ? {} : { from: sorted[at - 1] }),
            to: edge,
            pay: ascending[sorted.length - 1 - at]!,
          }))
        : sorted.map((edge, at) => ({
            from: edge,
            ...(at === sorted.length - 1 ? {} : { to: sorted[at + 1] }),
            pay: ascending[at]!,
          }));
    });

const phaseOf = (
  amounts: SheetAmounts,
  reading: ReadingIndex,
  months: readonly (typeof MONTHS)[number][],
  coverLimit: number,
  id: string,
): fc.Arbitrary<Phase> => {
  const days = months.reduce((sum, month) => sum + DAYS_IN[month], 0);
  const { min, max } = READING_BOUNDS[reading];
  // Index values run up to a window of readings; levels are drawn from a range the index may reach.
  const [low, high] = [Math.min(0, min * 10), max * 10];
  return fc
    .record({
      day: dayTransform(reading),
      blocks: fc.option(blocksOf(months), { nil: undefined }),
      limit: amount(amounts, coverLimit),
      direction: fc.constantFrom('below', 'above' as const),
      minCoverage: fc.constantFrom(0.5, 0.8, 0.9, 1),
      settle: fc.oneof(
        fc.constantFrom<Settle>('any_time', 'window_closed'),
        fc.integer({ min: 1, max: days }).map((after_days) => ({ after_days })),
      ),
      kind: fc.constantFrom('linear', 'tick', 'steps' as const),
    })
    .chain(({ day, blocks, limit, direction, minCoverage, settle, kind }) =>
      fc
        .record({
          aggregate: aggregateOf(blocks !== undefined, day !== undefined && 'is' in day, days),
          payout:
            kind === 'linear'
              ? levelPair(direction, low, high, days).map((levels) => ({ linear: { direction, ...levels } }))
              : kind === 'tick'
                ? fc
                    .tuple(decimal(low, high), amount(amounts, limit))
                    .map(([trigger, per_unit]) => ({ tick: { direction, trigger, per_unit } }))
                : stepsOf(amounts, limit, low, high).map((steps) => ({ steps })),
        })
        .map(({ aggregate, payout }): Phase => {
          const paysBelow = 'steps' in payout ? payout.steps[0]?.from === undefined : direction === 'below';
          const summed = aggregate === 'sum' || aggregate === 'mean' || blocks !== undefined;
          return {
            id,
            window: { from: `${months[0]}-01`, to: `${months.at(-1)}-${LAST_DAY[months.at(-1)!]}` },
            ...(day === undefined ? {} : { day }),
            ...(blocks === undefined ? {} : { blocks }),
            aggregate,
            payout,
            limit,
            settle: paysBelow && summed ? 'window_closed' : settle,
            min_coverage: minCoverage,
          };
        }),
    );
};

/** The months of the season cut into 1–3 consecutive phases. */
const monthRuns = fc.uniqueArray(fc.integer({ min: 1, max: MONTHS.length - 1 }), { maxLength: 2 }).map((cuts) => {
  const edges = [0, ...[...cuts].sort((a, b) => a - b), MONTHS.length];
  return edges.slice(1).map((end, at) => MONTHS.slice(edges[at], end));
});

const coverOf = (amounts: SheetAmounts, peril: Peril, sheetLimit: number): fc.Arbitrary<Cover> =>
  fc
    .record({
      reading: fc.constantFrom(...ReadingIndex.options),
      limit: amount(amounts, sheetLimit),
      runs: monthRuns,
      baseRate: decimal(0.001, 0.05, 3),
    })
    .chain(({ reading, limit, runs, baseRate }) =>
      fc.tuple(...runs.map((months, at) => phaseOf(amounts, reading, months, limit, `phase-${at + 1}`))).map(
        (phases): Cover => ({
          peril,
          index: `${peril}_index`,
          reading,
          limit,
          base_rate: baseRate,
          exposure: 'season',
          phases,
        }),
      ),
    );

/** A valid term sheet of 1–3 covers over April–September. */
export const termSheetArbitrary: fc.Arbitrary<TermSheet> = fc
  .record({
    amounts: fc.oneof(
      fc.constant<SheetAmounts>({ unit: 'share' }),
      fc
        .integer({ min: 1_000_000, max: 100_000_000 })
        .map((basis): SheetAmounts => ({ unit: 'minor', currency: 'USD', sum_insured_minor: basis })),
    ),
    perils: fc.uniqueArray(fc.constantFrom(...Peril.options), { minLength: 1, maxLength: 3 }),
    rounding: fc.constantFrom('half_up', 'down' as const),
  })
  .chain(({ amounts, perils, rounding }) => {
    const whole = amounts.unit === 'minor' ? amounts.sum_insured_minor : 1;
    return fc.tuple(amount(amounts, whole), ...perils.map((peril) => coverOf(amounts, peril, whole))).map(
      ([limit, ...covers]): TermSheet => ({
        // Version 2 when a cover names a peril or a reading only version 2 has.
        schema: versionTwoFeatures({ covers }).length === 0 ? TERM_SHEET_SCHEMA : TERM_SHEET_SCHEMA_V2,
        name: 'random sheet',
        season: SEASON,
        amounts,
        limit,
        rounding,
        covers,
      }),
    );
  });

/** A reading of `reading` on each day of the season, within its bounds. */
export const seasonReadingsArbitrary = (reading: ReadingIndex): fc.Arbitrary<IndexObservation[]> => {
  const { min, max } = READING_BOUNDS[reading];
  return fc
    .array(fc.oneof(decimal(min, max), decimal(Math.max(min, 0), Math.min(max, 10)), fc.constant(Math.max(min, 0))), {
      minLength: 183,
      maxLength: 183,
    })
    .map((values) => values.map((value, at) => ({ date: addDays(SEASON_2026.start, at), value, revision: 1 })));
};

import type {
  Blocks,
  Cadence,
  ClimatologyPeriod,
  FrozenClimatology,
  Peril,
  PolicyDataSources,
  TermSheet,
} from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../domain-error';
import { startsPeriod } from '../../index-sources/cadence';
import { periodsOfYear } from '../../index-sources/climatologies/climatology-periods';
import { anySeasonSheetArbitrary, readingsFrom } from '../../testing/any-season-sheet-arbitraries';
import { addDays, dayNumber } from '../calendar/calendar-date';
import type { CoverTerm } from '../calendar/cover-term';
import { dayValuesIn } from '../index-data/day-values';
import { seasonLossPpm } from '../pricing/burning-cost';
import { rateCover } from '../pricing/pricing';
import { checkClimatologyBlocks } from './climatology-blocks';
import { evaluateCover } from './evaluate-cover';
import { checkSourcePeriods } from './source-periods';
import { validateTermSheet, windowErrors } from './validate';
import { seasonStartingIn, seasonsBackOf } from './windows';

// A sheet that validates is sold, evaluated, backtested and priced in every season (SPEC §5: no 500),
// 1981–2100, leap years included: fixed seasons of any part of the year (February's end written `02-28` or
// `02-29`, seasons across a new year), seasonless sheets anchored on a term with offsets, blocks of
// dekads, months and n days (issue 32: a Jan–Feb block of 59 days once met a 60-day window in 2028).

const FIRST_YEAR = 1981;
const LAST_YEAR = 2100;

/** The window errors a quote or issue on `term` refuses with (`window_outside_term`). */
const quoteRefusals = (sheet: TermSheet, term: CoverTerm) =>
  windowErrors(sheet, term).filter((found) => found.code !== 'aggregate_invalid');

/** The climatology each peril's blocks read, as a policy would have frozen it. */
type Climatologies = Partial<Record<Peril, FrozenClimatology>>;

/** A climatology of the kind the blocks are cut in, with a normal and a deviation above 0 for every period. */
const climatologyFor = (blocks: Blocks): FrozenClimatology => {
  const by = blocks.by;
  const period: ClimatologyPeriod =
    by === 'source_period'
      ? 'dekad'
      : typeof by === 'string'
        ? by
        : 'days' in by
          ? { days: by.days }
          : by.months === 1
            ? 'month'
            : 'dekad';
  return {
    name: 'drawn',
    version: 1,
    digest: 'sha256:drawn',
    period,
    stat: blocks.stat ?? 'sum',
    normals: periodsOfYear(period, 2001).map(({ period: at }) => ({
      period: at,
      starts: '01-01',
      n: 30,
      mean: 10 + at,
      sd: 1 + at / 10,
      percentiles: null,
    })),
  };
};

/** The sheet with every listed normal read instead from a climatology (TERM-SHEETS.md §5), and those. */
const readAgainstClimatologies = (sheet: TermSheet): { sheet: TermSheet; climatologies: Climatologies } => {
  const climatologies: Climatologies = {};
  const covers = sheet.covers.map((cover) => ({
    ...cover,
    phases: cover.phases.map((phase) => {
      const blocks = phase.blocks;
      if (blocks?.vs_normal === undefined) return phase;
      climatologies[cover.peril] ??= climatologyFor(blocks);
      return {
        ...phase,
        blocks: { ...blocks, vs_normal: { as: blocks.vs_normal.as, climatology: { name: 'drawn' } } },
      };
    }),
  }));
  return { sheet: { ...sheet, schema: 'cropcover.term-sheet/2', covers }, climatologies };
};

/** Whether quote and issue would sell the covers on `term` against those climatologies: a refusal
 *  (`climatology_period`, …) is an answer, anything else thrown is not. */
const sellsAgainst = (sheet: TermSheet, term: CoverTerm, climatologies: Climatologies): boolean => {
  try {
    for (const cover of sheet.covers) {
      const climatology = climatologies[cover.peril];
      if (climatology !== undefined) checkClimatologyBlocks(cover, term, climatology, 'drawn');
    }
    return true;
  } catch (refused) {
    if (!(refused instanceof DomainError)) throw refused;
    return false;
  }
};

/** Every cover evaluated on a season as a live evaluation, a backtest and the burning cost would. */
const evaluateOn = (sheet: TermSheet, season: CoverTerm, seed: number, climatologies: Climatologies = {}): void => {
  for (const cover of sheet.covers) {
    const observed = readingsFrom(cover.reading, addDays(season.start, -5), addDays(season.end, 5), seed);
    const readings = dayValuesIn(observed, season.start, season.end);
    const climatology = climatologies[cover.peril];
    const spec = { cover, amounts: sheet.amounts, term: season, readings, source: { climatology } };
    const middle = addDays(season.start, Math.floor((dayNumber(season.end) - dayNumber(season.start)) / 2));
    for (const asOf of [season.start, middle, season.end, addDays(season.end, 40)]) evaluateCover(spec, asOf);
    seasonLossPpm(
      cover,
      sheet.amounts,
      { season, startDay: dayNumber(season.start), endDay: dayNumber(season.end), readings },
      { climatology },
    );
  }
};

/** The burning cost of the covers on `term` over the three seasons before it; a refusal (`uninsurable`)
 *  is an answer, anything else thrown is not. */
const priceOn = (sheet: TermSheet, term: CoverTerm, seed: number, climatologies: Climatologies = {}): void => {
  const perils = sheet.covers.map((cover) => cover.peril);
  const history = Object.fromEntries(
    sheet.covers.map((cover) => [
      cover.peril,
      readingsFrom(cover.reading, addDays(term.start, -3 * 366 - 10), addDays(term.start, -1), seed),
    ]),
  );
  const dataSources: PolicyDataSources = Object.fromEntries(
    sheet.covers.map((cover) => [
      cover.peril,
      {
        source_id: 'drawn',
        kind: 'grid',
        index: cover.reading,
        location: 'drawn',
        climatology: climatologies[cover.peril],
      },
    ]),
  );
  try {
    rateCover(
      { perils, hasIrrigation: false, term, today: term.start, history, dataSources },
      { ref: { product_id: 'drawn', version: 1, digest: 'sha256:drawn' }, sheet },
    );
  } catch (refused) {
    if (!(refused instanceof DomainError)) throw refused;
  }
};

describe('a sheet that validates, in every season 1981–2100', () => {
  it('is sold, evaluated, backtested and priced without an error in any season', () => {
    fc.assert(
      fc.property(
        anySeasonSheetArbitrary,
        fc.uniqueArray(fc.integer({ min: FIRST_YEAR, max: LAST_YEAR }), { minLength: 2, maxLength: 4 }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.boolean(),
        ({ sheet: drawn, term }, years, seed, againstClimatologies) => {
          // Version 2: the same sheet reading its normals from a climatology of its source, half the time.
          const { sheet, climatologies } = againstClimatologies
            ? readAgainstClimatologies(drawn)
            : { sheet: drawn, climatologies: {} };
          fc.pre(validateTermSheet(sheet).length === 0);
          fc.pre(term === undefined || quoteRefusals(sheet, term).length === 0);
          // A fixed season is sold in any year; a seasonless sheet on its term, backtested years back.
          const sold =
            sheet.season === undefined
              ? [term!]
              : [2028, ...years].map((year) => seasonStartingIn(sheet.season!, year));
          for (const season of sold) {
            expect(quoteRefusals(sheet, season)).toEqual([]);
            // A season sold against a climatology whose periods its blocks are; other seasons read the
            // numbers frozen for it, whatever their 29 February does to the blocks.
            if (!sellsAgainst(sheet, season, climatologies)) continue;
            evaluateOn(sheet, season, seed, climatologies);
            priceOn(sheet, season, seed, climatologies);
            const yearsBack = seasonsBackOf(sheet, season);
            for (const year of years) {
              const back = Number(season.start.slice(0, 4)) - year;
              if (back > 0) evaluateOn(sheet, yearsBack(back), seed, climatologies);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

const NON_DAILY: readonly Cadence[] = ['pentad', 'dekad', '8_day', '16_day', 'month'];

/** The sheet read from a non-daily source: half the time each phase's blocks become the source's own
 *  periods (TERM-SHEETS.md §5 `source_period`, whose figures come from a climatology, not a list). */
const overPeriods = (sheet: TermSheet, sourcePeriods: boolean): TermSheet => ({
  ...sheet,
  schema: 'cropcover.term-sheet/2',
  covers: sheet.covers.map((cover) => ({
    ...cover,
    phases: cover.phases.map((phase) => {
      if (!sourcePeriods || phase.blocks === undefined) return phase;
      const { vs_normal: _listed, weights: _weights, ...blocks } = phase.blocks;
      return { ...phase, blocks: { ...blocks, by: 'source_period' as const } };
    }),
  })),
});

describe('a sheet that validates, read from a non-daily source', () => {
  it('is refused period_mismatch, or sold, evaluated, backtested and priced on its periods without an error', () => {
    fc.assert(
      fc.property(
        anySeasonSheetArbitrary,
        fc.constantFrom(...NON_DAILY),
        fc.boolean(),
        fc.integer({ min: FIRST_YEAR, max: LAST_YEAR }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        ({ sheet: drawn, term }, cadence, sourcePeriods, year, seed) => {
          const sheet = overPeriods(drawn, sourcePeriods);
          fc.pre(validateTermSheet(sheet).length === 0);
          const season = sheet.season === undefined ? term! : seasonStartingIn(sheet.season, year);
          fc.pre(quoteRefusals(sheet, season).length === 0);
          try {
            for (const cover of sheet.covers) checkSourcePeriods(cover, season, cadence, 'drawn');
          } catch (refused) {
            if (refused instanceof DomainError && refused.code === 'period_mismatch') return;
            throw refused;
          }
          for (const cover of sheet.covers) {
            const observed = readingsFrom(
              cover.reading,
              addDays(season.start, -20),
              addDays(season.end, 20),
              seed,
            ).filter(({ date }) => startsPeriod(cadence, date));
            const readings = dayValuesIn(observed, season.start, season.end);
            const spec = { cover, amounts: sheet.amounts, term: season, readings, source: { cadence } };
            for (const asOf of [season.start, season.end, addDays(season.end, 40)]) evaluateCover(spec, asOf);
            const days = { season, startDay: dayNumber(season.start), endDay: dayNumber(season.end), readings };
            seasonLossPpm(cover, sheet.amounts, days, { cadence });
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

import type { Cover, Phase, TermSheet } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import {
  KHARIF_DEFICIT_SHEET,
  RAIN_DAYS_SHEET,
  RWBCIS_ORANGE_SHEET,
  SCIC_CORN_SHEET,
} from '../../testing/example-sheets';
import { DEFAULT_SHEET } from './builtin';
import { validateTermSheet, windowErrors } from './validate';

// TERM-SHEETS.md §2.2: each rule broken once on an otherwise valid sheet is exactly one error with its
// code and where it is.

/** Example B with its first cover's first phase (and the cover) changed. */
const kharif = (phase: Partial<Phase> = {}, cover: Partial<Cover> = {}, sheet: Partial<TermSheet> = {}): TermSheet => {
  const [drought] = KHARIF_DEFICIT_SHEET.covers;
  const [first, ...rest] = drought!.phases;
  return {
    ...KHARIF_DEFICIT_SHEET,
    ...sheet,
    covers: [{ ...drought!, ...cover, phases: [{ ...first!, ...phase }, ...rest] }],
  };
};

const rainDays = (phase: Partial<Phase>): TermSheet => {
  const [cover] = RAIN_DAYS_SHEET.covers;
  return { ...RAIN_DAYS_SHEET, covers: [{ ...cover!, phases: [{ ...cover!.phases[0]!, ...phase }] }] };
};

const codesOf = (sheet: TermSheet) => validateTermSheet(sheet).map(({ path, code }) => ({ path, code }));

describe('validating a term sheet', () => {
  it('accepts the examples A–D and the default product', () => {
    for (const sheet of [RWBCIS_ORANGE_SHEET, KHARIF_DEFICIT_SHEET, RAIN_DAYS_SHEET, SCIC_CORN_SHEET, DEFAULT_SHEET]) {
      expect(validateTermSheet(sheet)).toEqual([]);
    }
  });

  it('refuses an exit on the wrong side of a linear trigger: trigger_exit_order', () => {
    expect(codesOf(kharif({ payout: { linear: { direction: 'below', trigger: 100, exit: 120 } } }))).toEqual([
      { path: 'covers.0.phases.0.payout.linear.exit', code: 'trigger_exit_order' },
    ]);
  });

  it('refuses phases out of order or overlapping: phases_overlap', () => {
    expect(codesOf(kharif({ window: { from: '06-01', to: '07-10' } }))).toEqual([
      { path: 'covers.0.phases.1.window', code: 'phases_overlap' },
    ]);
  });

  it('refuses a window outside the season: window_outside_term', () => {
    const [drought] = KHARIF_DEFICIT_SHEET.covers;
    const phases = drought!.phases.map((phase, at) =>
      at === 2 ? { ...phase, window: { from: '08-11', to: '10-10' } } : phase,
    );
    expect(codesOf({ ...KHARIF_DEFICIT_SHEET, covers: [{ ...drought!, phases }] })).toEqual([
      { path: 'covers.0.phases.2.window', code: 'window_outside_term' },
    ]);
  });

  it('refuses a window that ends before it starts: window_empty', () => {
    const anchored = { from: { anchor: 'term_start', days: 20 }, to: { anchor: 'term_start', days: 10 } } as const;
    expect(codesOf(kharif({ window: anchored }))).toEqual([{ path: 'covers.0.phases.0.window', code: 'window_empty' }]);
  });

  it('refuses a limit above the basis sum insured: limit_exceeds_sum_insured', () => {
    expect(codesOf(kharif({}, {}, { limit: 3_000_001 }))).toEqual([
      { path: 'limit', code: 'limit_exceeds_sum_insured' },
    ]);
  });

  it('refuses a phase limit above its cover limit: limit_exceeds_cover_limit', () => {
    expect(codesOf(kharif({ limit: 2_500_000 }))).toEqual([
      { path: 'covers.0.phases.0.limit', code: 'limit_exceeds_cover_limit' },
    ]);
  });

  it('refuses a step table that pays less further from its no-pay side: steps_invalid', () => {
    const steps = [
      { from: 5, to: 7, pay: 800_000 },
      { from: 7, pay: 700_000 },
    ];
    expect(codesOf(rainDays({ payout: { steps } }))).toEqual([
      { path: 'covers.0.phases.0.payout.steps.1.pay', code: 'steps_invalid' },
    ]);
  });

  it('refuses a deficit over a sum that settles before its window closes: premature_settlement', () => {
    expect(codesOf(kharif({ settle: 'any_time' }))).toEqual([
      { path: 'covers.0.phases.0.settle', code: 'premature_settlement' },
    ]);
  });

  it('refuses blocks off their boundaries: blocks_misaligned', () => {
    expect(codesOf(kharif({ window: { from: '06-02', to: '06-30' } }))).toEqual([
      { path: 'covers.0.phases.0.blocks', code: 'blocks_misaligned' },
    ]);
  });

  it('refuses a normal per block that does not match the blocks: blocks_arity', () => {
    const blocks: NonNullable<Phase['blocks']> = { by: 'dekad', vs_normal: { as: 'percent', normal: [50, 60] } };
    expect(codesOf(kharif({ blocks }))).toEqual([{ path: 'covers.0.phases.0.blocks.normal', code: 'blocks_arity' }]);
  });

  it('refuses a percent of a normal of 0: normal_not_positive', () => {
    const blocks: NonNullable<Phase['blocks']> = { by: 'dekad', vs_normal: { as: 'percent', normal: [50, 0, 60] } };
    expect(codesOf(kharif({ blocks }))).toEqual([
      { path: 'covers.0.phases.0.blocks.vs_normal.normal', code: 'normal_not_positive' },
    ]);
  });

  it('refuses a longest run of no predicate: aggregate_invalid', () => {
    expect(codesOf(rainDays({ day: { cap: 10 }, aggregate: 'longest_run' }))).toEqual([
      { path: 'covers.0.phases.0.aggregate', code: 'aggregate_invalid' },
    ]);
  });

  it('refuses two covers of one peril: duplicate_peril', () => {
    const sheet = {
      ...KHARIF_DEFICIT_SHEET,
      covers: [...KHARIF_DEFICIT_SHEET.covers, KHARIF_DEFICIT_SHEET.covers[0]!],
    };
    expect(codesOf(sheet)).toEqual([{ path: 'covers.1.peril', code: 'duplicate_peril' }]);
  });

  it('refuses two phases of one id: duplicate_phase', () => {
    const [drought] = KHARIF_DEFICIT_SHEET.covers;
    const phases = drought!.phases.map((phase, at) => (at === 2 ? { ...phase, id: drought!.phases[0]!.id } : phase));
    expect(codesOf({ ...KHARIF_DEFICIT_SHEET, covers: [{ ...drought!, phases }] })).toEqual([
      { path: 'covers.0.phases.2.id', code: 'duplicate_phase' },
    ]);
  });

  it('refuses a season longer than 366 days: season_too_long', () => {
    // From 07-01 to the next 07-01 is a year and a day: 367 days across a 29 February.
    const sheet = { ...RAIN_DAYS_SHEET, season: { from: '07-01', to: '07-01' } };
    expect(codesOf(sheet)).toEqual([{ path: 'season', code: 'season_too_long' }]);
  });

  it('refuses a window anchored on a sowing the cover does not detect: sowing_invalid', () => {
    const anchored = { from: { anchor: 'sowing', days: 0 }, to: { anchor: 'sowing', days: 29 } } as const;
    expect(codesOf(kharif({ window: anchored }))).toEqual([
      { path: 'covers.0.phases.0.window', code: 'sowing_invalid' },
    ]);
  });

  it('reports every rule broken, each once', () => {
    const broken = kharif({ settle: 'any_time', limit: 2_500_000 });
    expect(codesOf(broken).map(({ code }) => code)).toEqual(['premature_settlement', 'limit_exceeds_cover_limit']);
  });

  it('checks the windows of a sheet without a season on the term quoted', () => {
    const term = { start: '2026-04-01', end: '2026-06-29' };
    expect(windowErrors(DEFAULT_SHEET, term)).toEqual([]);
    const late = {
      ...DEFAULT_SHEET,
      covers: [
        {
          ...DEFAULT_SHEET.covers[1]!,
          phases: [{ ...DEFAULT_SHEET.covers[1]!.phases[0]!, window: { from: '07-01', to: '07-31' } }],
        },
      ],
    };
    expect(windowErrors(late, term).map(({ code }) => code)).toEqual(['window_outside_term']);
  });
});

import { type TermSheet, TermSheet as TermSheetSchema } from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anySeasonSheetArbitrary } from '../../../testing/any-season-sheet-arbitraries';
import {
  KHARIF_DEFICIT_SHEET,
  PRF_JAN_FEB_SHEET,
  RAIN_DAYS_SHEET,
  RWBCIS_ORANGE_SHEET,
  SCIC_CORN_SHEET,
} from '../../../testing/example-sheets';
import { JUNE_DRY_SHEET } from '../../../testing/june-dry-sheet';
import { decimal, termSheetArbitrary } from '../../../testing/sheet-arbitraries';
import { TERM_ANCHORED_PHASES_SHEET } from '../../../testing/term-anchored-sheet';
import { DEFAULT_SHEET } from '../builtin';
import { readPhaseTable } from './read-phase-table';
import { writePhaseTable } from './write-phase-table';

// TERM-SHEETS.md §5.1: a sheet's phase table says the whole sheet — written, then read, it is the same
// JSON — and a table that is not one is refused with its row and column, never half read.

/** The sheet as a JSON body would carry it. */
const asJson = (sheet: TermSheet): unknown => JSON.parse(JSON.stringify(sheet));

const roundTrip = (sheet: TermSheet): unknown => readPhaseTable(writePhaseTable(sheet));

const EXAMPLES: Record<string, TermSheet> = {
  RWBCIS_ORANGE_SHEET,
  KHARIF_DEFICIT_SHEET,
  RAIN_DAYS_SHEET,
  SCIC_CORN_SHEET,
  PRF_JAN_FEB_SHEET,
  JUNE_DRY_SHEET,
  TERM_ANCHORED_PHASES_SHEET,
  DEFAULT_SHEET,
};

/** Every optional field of the language, text that CSV must quote and text that would read as JSON or a
 *  number, on a drawn sheet: what the arbitraries leave out. */
const withExtras: fc.Arbitrary<TermSheet> = fc
  .record({
    sheet: termSheetArbitrary,
    note: fc.option(fc.oneof(fc.string(), fc.constantFrom('', '{not json', '"quoted", and\nmore', '12', 'true')), {
      nil: undefined,
    }),
    name: fc.constantFrom('plain', 'a, b "c"', '[x]', 'line\r\nbreak', '007'),
    pricing: fc.option(
      fc.record({ loading: decimal(0, 3), credibility_seasons: fc.integer({ min: 1, max: 30 }) }, { requiredKeys: [] }),
      { nil: undefined },
    ),
    required: fc.option(fc.boolean(), { nil: undefined }),
    irrigated: fc.option(decimal(0, 1, 6), { nil: undefined }),
    settle: fc.option(
      fc.oneof(fc.constantFrom('any_time', 'window_closed' as const), fc.constant({ after_days: 10 })),
      { nil: undefined },
    ),
    minCoverage: fc.option(decimal(0.01, 1), { nil: undefined }),
  })
  .map(({ sheet, note, name, pricing, required, irrigated, settle, minCoverage }): TermSheet => {
    const [first, ...others] = sheet.covers;
    const cover = {
      ...first!,
      ...(required === undefined ? {} : { required }),
      ...(irrigated === undefined ? {} : { irrigated_factor: irrigated }),
      sowing: { from: '04-01', to: { anchor: 'term_start', days: 20 }, rolling_days: 3, at_least: 12.5 },
      phases: first!.phases.map((phase) => ({
        ...phase,
        ...(settle === undefined ? {} : { settle }),
        ...(minCoverage === undefined ? {} : { min_coverage: minCoverage }),
      })),
    } as const;
    return {
      ...sheet,
      name,
      ...(note === undefined ? {} : { note }),
      ...(pricing === undefined ? {} : { pricing }),
      covers: [cover, ...others],
    };
  });

describe('a sheet as its phase table', () => {
  it.each(Object.entries(EXAMPLES))('%s reads back as the same sheet', (_name, sheet) => {
    expect(roundTrip(sheet)).toEqual({ sheet: asJson(sheet) });
  });

  it('any drawn sheet reads back as the same sheet, and as a valid one', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          termSheetArbitrary,
          anySeasonSheetArbitrary.map(({ sheet }) => sheet),
          withExtras,
        ),
        (sheet) => {
          const read = roundTrip(sheet);
          expect(read).toEqual({ sheet: asJson(sheet) });
          expect(TermSheetSchema.safeParse((read as { sheet: unknown }).sheet).success).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is one row per phase under the header, the sheet on the first row and the cover on each of its rows', () => {
    const lines = writePhaseTable(RWBCIS_ORANGE_SHEET).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^schema,name,note,.*,peril,.*,phase,from,to,.*,payout,direction,trigger,exit,per_unit,steps,limit/,
    );
    expect(lines[1]).toContain('cropcover.term-sheet/1,"RWBCIS Maharashtra orange (Ambia bahar) 2020-23, per hectare"');
    expect(lines[2]).toMatch(/^,,,,,,,,,,,,,cold,/);
  });
});

describe('a table that is not a sheet', () => {
  const header =
    'schema,name,season_from,season_to,unit,peril,index,reading,cover_limit,base_rate,exposure,phase,from,to,aggregate,payout,direction,trigger,exit,limit';
  const row =
    'cropcover.term-sheet/1,Dry,06-01,06-30,share,drought,rain_sum,rainfall_mm,1,0.05,season,june,06-01,06-30,sum,linear,below,50,10,1';

  it('written by hand, with only the columns it needs, reads as its sheet', () => {
    expect(readPhaseTable(`${header}\n${row}\n`)).toEqual({
      sheet: {
        schema: 'cropcover.term-sheet/1',
        name: 'Dry',
        season: { from: '06-01', to: '06-30' },
        amounts: { unit: 'share' },
        covers: [
          {
            peril: 'drought',
            index: 'rain_sum',
            reading: 'rainfall_mm',
            limit: 1,
            base_rate: 0.05,
            exposure: 'season',
            phases: [
              {
                id: 'june',
                window: { from: '06-01', to: '06-30' },
                aggregate: 'sum',
                payout: { linear: { direction: 'below', trigger: 50, exit: 10 } },
                limit: 1,
              },
            ],
          },
        ],
      },
    });
  });

  it.each([
    ['a row of another length', `${header}\n${row},extra\n`, [{ row: 2 }]],
    ['an unclosed quote', `${header}\n"${row}\n`, [{ row: 2 }]],
    ['nothing', '', [{ message: expect.stringContaining('empty') }]],
    ['a header alone', `${header}\n`, [{ row: 2 }]],
    ['an unknown column', `${header},colour\n${row},red\n`, [{ row: 1, column: 'colour' }]],
    ['a column twice', `${header},limit\n${row},1\n`, [{ row: 1, column: 'limit' }]],
    ['no peril column', 'name,phase\nDry,june\n', [{ row: 1, message: expect.stringContaining('peril') }]],
    [
      'a number that is not one',
      `${header}\n${row.replace(',50,10,', ',fifty,10,')}\n`,
      [{ row: 2, column: 'trigger' }],
    ],
    [
      'JSON that is not',
      `${header}\n${row.replace(',sum,', ',"{""rolling"":}",')}\n`,
      [{ row: 2, column: 'aggregate' }],
    ],
    [
      'two values of a sheet field',
      `${header}\n${row}\n${row.replace('Dry', 'Wet').replace('june', 'july')}\n`,
      [{ row: 3, column: 'name' }],
    ],
    [
      'a cell of another payout map',
      `${header},per_unit\n${row},5\n`,
      [{ row: 2, column: 'per_unit', message: 'is not a column of a linear payout' }],
    ],
    ['a phase of no cover', `${header}\n${row.replace(',drought,', ',,')}\n`, [{ row: 2, column: 'peril' }]],
  ])('%s is refused with where it is wrong', (_case, text, errors) => {
    const read = readPhaseTable(text);
    expect(read).toEqual({ errors: errors.map((error) => expect.objectContaining(error)) });
  });
});

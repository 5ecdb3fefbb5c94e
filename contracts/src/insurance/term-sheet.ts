import { CurrencyCode } from '../currency';
import { z } from '../zod';
import { ClimatologyReference, PERCENTILE_RANKS } from './climatology-name';
import { hasAtMostDecimals } from './money-amount';
import { Peril, ReadingIndex, TriggerIndex } from './peril';

// The term sheet (TERM-SHEETS.md §1.2): what a product pays, as covers of phases. This is its shape only
// — types, known fields and enum values, at most 6 decimals, whole minor amounts, non-negative weights —
// whose breach is a 400 `validation_failed`. The rules between fields (trigger before exit, phases in
// order, limits within the sum insured, …) are the domain's `validateTermSheet`: 422 `invalid_term_sheet`.

const DECIMAL_PLACES = 6;

/** A figure of the sheet: a JSON number with at most 6 decimals, read digit by digit (never as a float). */
const Dec = z.number().refine((value) => hasAtMostDecimals(value, DECIMAL_PLACES), {
  message: `must have at most ${DECIMAL_PLACES} decimals`,
});

const NonNegativeDec = Dec.refine((value) => value >= 0, { message: 'must not be negative' });

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** `MM-DD`: its first occurrence on or after the term's start; `02-29` is the last day of February. */
export const MonthDay = z
  .string()
  .regex(/^\d{2}-\d{2}$/, { message: 'must be a month and day MM-DD' })
  .refine(
    (value) => {
      const [month = 0, day = 0] = value.split('-').map(Number);
      return month >= 1 && month <= 12 && day >= 1 && day <= DAYS_IN_MONTH[month - 1]!;
    },
    { message: 'must be a real month and day' },
  )
  .openapi('MonthDay', { example: '06-01' });
export type MonthDay = z.infer<typeof MonthDay>;

/** The most days an anchored date may lie from its anchor: a season is at most 366 days. */
const MAX_ANCHOR_DAYS = 366;

export const DateRef = z
  .union([
    MonthDay,
    z.strictObject({
      anchor: z.enum(['term_start', 'term_end', 'sowing']),
      days: z.number().int().min(-MAX_ANCHOR_DAYS).max(MAX_ANCHOR_DAYS),
    }),
  ])
  .openapi('DateRef');
export type DateRef = z.infer<typeof DateRef>;

/** Version 2: the location's climatology percentile of the phase's period (INDEX-DATA §3), frozen at issue;
 *  the climatology is the one the cover's blocks read, or the one named here. */
export const PercentileLevel = z
  .strictObject({
    percentile: z
      .number()
      .int()
      .refine((rank) => (PERCENTILE_RANKS as readonly number[]).includes(rank), {
        message: `must be one of ${PERCENTILE_RANKS.join(', ')}`,
      }),
    climatology: ClimatologyReference.optional(),
  })
  .openapi('PercentileLevel');
export type PercentileLevel = z.infer<typeof PercentileLevel>;

/** A level in index units: a number, that many per day of the phase's full window, or a percentile. */
export const Level = z.union([Dec, z.strictObject({ per_window_day: Dec }), PercentileLevel]).openapi('Level');
export type Level = z.infer<typeof Level>;

/** Money of the sheet: a share of the policy's sum insured (unit `share`) or minor units of the basis sum
 *  insured (unit `minor`); which one is checked against the sheet's unit. */
const Amount = z.number().positive({ message: 'must be greater than 0' });

const Direction = z.enum(['below', 'above']);

export const DayTransform = z
  .union([
    z.strictObject({ cap: Dec }),
    z.strictObject({ is: z.strictObject({ op: z.enum(['lt', 'lte', 'gt', 'gte']), value: Dec }) }),
    z.strictObject({
      exceedance: z.union([z.strictObject({ below: Dec }), z.strictObject({ above: Dec })]),
    }),
  ])
  .openapi('DayTransform');
export type DayTransform = z.infer<typeof DayTransform>;

/** More blocks than a year has dekads never occur; the bound keeps a sheet's size reasonable. */
const MAX_BLOCKS = 400;

export const Blocks = z
  .strictObject({
    by: z.union([
      // `source_period` (version 2): each period of a non-daily source (a dekad, an 8-day composite) is
      // its own block.
      z.enum(['dekad', 'month', 'source_period']),
      z.strictObject({ days: z.number().int().min(1).max(366) }),
      // Version 2: calendar intervals of n months (PRF's two-month intervals), leap days included.
      z.strictObject({ months: z.number().int().min(1).max(12) }),
    ]),
    stat: z.enum(['sum', 'mean']).optional(),
    vs_normal: z
      .union([
        z.strictObject({
          as: z.enum(['percent', 'difference', 'z']),
          normal: z.array(Dec).min(1).max(MAX_BLOCKS),
          sd: z.array(Dec).min(1).max(MAX_BLOCKS).optional(),
        }),
        // Version 2: the normals (and standard deviations) of the policy's location in a climatology of its
        // source (INDEX-DATA §3), its latest version at issue unless one is named, frozen into the policy.
        z.strictObject({
          as: z.enum(['percent', 'difference', 'z']),
          climatology: ClimatologyReference,
        }),
      ])
      .optional(),
    cap: Dec.optional(),
    weights: z.array(NonNegativeDec).min(1).max(MAX_BLOCKS).optional(),
    round: z.number().int().min(0).max(DECIMAL_PLACES).optional(),
  })
  .openapi('Blocks');
export type Blocks = z.infer<typeof Blocks>;

export const IndexAggregate = z
  .union([
    z.enum(['sum', 'mean', 'max', 'min', 'longest_run']),
    z.strictObject({
      rolling: z.strictObject({
        days: z.number().int().min(1).max(366),
        stat: z.enum(['sum', 'mean']),
        pick: z.enum(['max', 'min', 'last']),
      }),
    }),
    // Version 2 (TERM-SHEETS.md §5): multi-day events, no day counted twice, and the date of an event.
    z.strictObject({
      events: z.union([
        z.strictObject({ min_days: z.number().int().min(1).max(366) }),
        z.strictObject({ days: z.number().int().min(1).max(366), total_at_least: Dec }),
      ]),
    }),
    z.strictObject({ first_day: z.literal(true) }),
    z.strictObject({ last_day: z.literal(true) }),
  ])
  .openapi('IndexAggregate');
export type IndexAggregate = z.infer<typeof IndexAggregate>;

export const StepRow = z.strictObject({ from: Dec.optional(), to: Dec.optional(), pay: Amount }).openapi('StepRow');
export type StepRow = z.infer<typeof StepRow>;

export const PayoutMap = z
  .union([
    z.strictObject({ linear: z.strictObject({ direction: Direction, trigger: Level, exit: Level }) }),
    z.strictObject({ tick: z.strictObject({ direction: Direction, trigger: Level, per_unit: Amount }) }),
    z.strictObject({ steps: z.array(StepRow).min(1).max(200) }),
  ])
  .openapi('PayoutMap');
export type PayoutMap = z.infer<typeof PayoutMap>;

export const Settle = z
  .union([z.enum(['any_time', 'window_closed']), z.strictObject({ after_days: z.number().int().min(1).max(366) })])
  .openapi('Settle');
export type Settle = z.infer<typeof Settle>;

export const PhaseId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, { message: 'must be 1–64 letters, digits, _ or -' });

export const Phase = z
  .strictObject({
    id: PhaseId,
    window: z.strictObject({ from: DateRef, to: DateRef }),
    day: DayTransform.optional(),
    blocks: Blocks.optional(),
    aggregate: IndexAggregate,
    payout: PayoutMap,
    limit: Amount,
    settle: Settle.optional(),
    min_coverage: Dec.refine((value) => value > 0 && value <= 1, {
      message: 'must be above 0 and at most 1',
    }).optional(),
  })
  .openapi('TermSheetPhase');
export type Phase = z.infer<typeof Phase>;

export const Sowing = z
  .strictObject({ from: DateRef, to: DateRef, rolling_days: z.number().int().min(1).max(366), at_least: Dec })
  .openapi('Sowing');
export type Sowing = z.infer<typeof Sowing>;

export const Cover = z
  .strictObject({
    peril: Peril,
    /** Version 2: `concurrent` phases may overlap, each paying on its own, the cover's limit capping their
     *  sum; `sequential` (v1's rule, the default) keeps them in order without overlap. */
    phase_mode: z.enum(['sequential', 'concurrent']).optional(),
    index: TriggerIndex,
    reading: ReadingIndex,
    limit: Amount,
    required: z.boolean().optional(),
    base_rate: NonNegativeDec,
    exposure: z.enum(['term_days', 'season']),
    irrigated_factor: NonNegativeDec.optional(),
    sowing: Sowing.optional(),
    phases: z.array(Phase).min(1).max(64),
  })
  .openapi('TermSheetCover');
export type Cover = z.infer<typeof Cover>;

export const SheetAmounts = z
  .discriminatedUnion('unit', [
    z.strictObject({ unit: z.literal('share') }),
    z.strictObject({
      unit: z.literal('minor'),
      currency: CurrencyCode,
      sum_insured_minor: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    }),
    // Version 2: the sum insured is the policy's exposure units × `value_minor` (PRF per acre, IBLI per
    // livestock unit); the amounts are shares of it.
    z.strictObject({
      unit: z.literal('per_exposure_unit'),
      currency: CurrencyCode,
      exposure_unit: z.enum(['acre', 'ha', 'livestock_unit', 'head']),
      value_minor: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    }),
  ])
  .openapi('SheetAmounts');
export type SheetAmounts = z.infer<typeof SheetAmounts>;

/** Who pays a share of the premium (PMFBY's farmer and government, PRF's subsidy). */
export const PremiumShare = z
  .strictObject({
    payer: z.string().trim().min(1).max(100),
    share: NonNegativeDec.refine((value) => value <= 1, { message: 'must be at most 1' }),
  })
  .openapi('PremiumShare');
export type PremiumShare = z.infer<typeof PremiumShare>;

export const SheetPricing = z
  .strictObject({
    credibility_seasons: z.number().int().min(1).max(1000).optional(),
    loading: NonNegativeDec.optional(),
    floor_of_base_rate: NonNegativeDec.optional(),
    maximum_rate: Dec.refine((value) => value > 0, { message: 'must be greater than 0' }).optional(),
    // Version 2 (TERM-SHEETS.md §5): a published rate instead of the burning cost, and who pays the premium.
    method: z.enum(['burning_cost', 'fixed_rate']).optional(),
    /** The cover's whole rate with `fixed_rate`: the premium is the sum insured × rate, rounded once. */
    rate: Dec.refine((value) => value > 0, { message: 'must be greater than 0' }).optional(),
    premium_shares: z.array(PremiumShare).min(1).max(10).optional(),
    /** `remainder_to_first` (default): the premium rounded once, every share but the first rounded half up
     *  from it, the first payer the rest; `each`: every share of the exact premium rounded half up, the
     *  premium their sum. */
    share_rounding: z.enum(['each', 'remainder_to_first']).optional(),
  })
  .superRefine((pricing, context) => {
    if (pricing.method === 'fixed_rate' && pricing.rate === undefined) {
      context.addIssue({ code: 'custom', path: ['rate'], message: 'a fixed_rate needs its rate' });
    }
    if (pricing.rate !== undefined && pricing.method !== 'fixed_rate') {
      context.addIssue({ code: 'custom', path: ['rate'], message: 'a rate is given with method fixed_rate' });
    }
    const payers = (pricing.premium_shares ?? []).map((share) => share.payer);
    payers.forEach((payer, at) => {
      if (payers.indexOf(payer) !== at) {
        context.addIssue({ code: 'custom', path: ['premium_shares', at, 'payer'], message: `${payer} is named twice` });
      }
    });
  })
  .openapi('SheetPricing');
export type SheetPricing = z.infer<typeof SheetPricing>;

export const TERM_SHEET_SCHEMA = 'cropcover.term-sheet/1';
/** Version 2 (TERM-SHEETS.md §5), a superset: every v1 sheet with this schema line pays the same. */
export const TERM_SHEET_SCHEMA_V2 = 'cropcover.term-sheet/2';

const VERSION_TWO_PERILS: ReadonlySet<string> = new Set([
  'heat_stress',
  'disease_risk',
  'forage_deficit',
  'livestock_mortality',
  'modelled_loss',
]);
const VERSION_TWO_READINGS: ReadonlySet<string> = new Set([
  'tmax_f',
  'tmin_f',
  'tmean_c',
  'predicted_mortality_pct',
  'forage_index',
  'modelled_loss_minor',
  'area_yield_bu_ac',
]);

/** The levels of a payout map, with where each sits in it. */
export const payoutLevels = (payout: PayoutMap): { readonly level: Level; readonly at: string[] }[] =>
  'linear' in payout
    ? [
        { level: payout.linear.trigger, at: ['linear', 'trigger'] },
        { level: payout.linear.exit, at: ['linear', 'exit'] },
      ]
    : 'tick' in payout
      ? [{ level: payout.tick.trigger, at: ['tick', 'trigger'] }]
      : [];

/** Where a sheet uses what only version 2 can say, with the path: a v1 sheet must not. */
export const versionTwoFeatures = (sheet: {
  readonly covers: readonly Cover[];
  readonly pricing?: SheetPricing | undefined;
  readonly amounts?: SheetAmounts;
}): (string | number)[][] => [
  ...(sheet.amounts?.unit === 'per_exposure_unit' ? [['amounts', 'unit']] : []),
  ...(['method', 'rate', 'premium_shares', 'share_rounding'] as const).flatMap((field) =>
    sheet.pricing?.[field] === undefined ? [] : [['pricing', field]],
  ),
  ...sheet.covers.flatMap((cover, at) => [
    ...(VERSION_TWO_PERILS.has(cover.peril) ? [['covers', at, 'peril']] : []),
    ...(VERSION_TWO_READINGS.has(cover.reading) ? [['covers', at, 'reading']] : []),
    ...(cover.phase_mode === undefined ? [] : [['covers', at, 'phase_mode']]),
    ...cover.phases.flatMap((phase, index) => {
      const path = ['covers', at, 'phases', index];
      const { aggregate, blocks } = phase;
      return [
        ...(typeof aggregate !== 'string' && !('rolling' in aggregate) ? [[...path, 'aggregate']] : []),
        ...(blocks !== undefined &&
        (blocks.by === 'source_period' || (typeof blocks.by !== 'string' && 'months' in blocks.by))
          ? [[...path, 'blocks', 'by']]
          : []),
        ...(blocks?.vs_normal !== undefined && 'climatology' in blocks.vs_normal
          ? [[...path, 'blocks', 'vs_normal', 'climatology']]
          : []),
        ...payoutLevels(phase.payout).flatMap(({ level, at }) =>
          typeof level === 'object' && 'percentile' in level ? [[...path, 'payout', ...at]] : [],
        ),
      ];
    }),
  ]),
];

/** Every money figure of a sheet, with where it sits: what the sheet's unit constrains. */
export const sheetAmounts = (sheet: {
  readonly limit?: number | undefined;
  readonly covers: readonly Cover[];
}): { readonly path: (string | number)[]; readonly amount: number }[] => [
  ...(sheet.limit === undefined ? [] : [{ path: ['limit'], amount: sheet.limit }]),
  ...sheet.covers.flatMap((cover, at) => [
    { path: ['covers', at, 'limit'], amount: cover.limit },
    ...cover.phases.flatMap((phase, index) => {
      const path = ['covers', at, 'phases', index];
      const { payout } = phase;
      return [
        { path: [...path, 'limit'], amount: phase.limit },
        ...('tick' in payout ? [{ path: [...path, 'payout', 'tick', 'per_unit'], amount: payout.tick.per_unit }] : []),
        ...('steps' in payout
          ? payout.steps.map((row, step) => ({ path: [...path, 'payout', 'steps', step, 'pay'], amount: row.pay }))
          : []),
      ];
    }),
  ]),
];

export const TermSheet = z
  .strictObject({
    schema: z.enum([TERM_SHEET_SCHEMA, TERM_SHEET_SCHEMA_V2]),
    name: z.string().trim().min(1).max(200),
    /** Free text, never read by the engine. */
    note: z.string().max(4000).optional(),
    season: z.strictObject({ from: MonthDay, to: MonthDay }).optional(),
    amounts: SheetAmounts,
    limit: Amount.optional(),
    rounding: z.enum(['half_up', 'down']).optional(),
    pricing: SheetPricing.optional(),
    covers: z.array(Cover).min(1).max(Peril.options.length),
  })
  .superRefine((sheet, context) => {
    if (sheet.schema === TERM_SHEET_SCHEMA) {
      for (const path of versionTwoFeatures(sheet)) {
        context.addIssue({ code: 'custom', path, message: `needs schema ${TERM_SHEET_SCHEMA_V2}` });
      }
    }
    // A share is a decimal of the sum insured; minor units of the basis are whole.
    for (const { path, amount } of sheetAmounts(sheet)) {
      if (sheet.amounts.unit === 'minor' && !Number.isSafeInteger(amount)) {
        context.addIssue({ code: 'custom', path, message: 'must be a whole number of minor units' });
      } else if (sheet.amounts.unit !== 'minor' && !hasAtMostDecimals(amount, DECIMAL_PLACES)) {
        context.addIssue({ code: 'custom', path, message: `must have at most ${DECIMAL_PLACES} decimals` });
      }
    }
  })
  .openapi('TermSheet');
export type TermSheet = z.infer<typeof TermSheet>;

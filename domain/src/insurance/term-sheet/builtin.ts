import {
  type Cover,
  DEFAULT_PRODUCT_ID,
  type Peril,
  TERM_SHEET_SCHEMA,
  type TermSheet,
  type TriggerAggregation,
  type TriggerTerms,
} from '@cropcover/contracts';
import { type CoverTerm, termDays } from '../calendar/cover-term';
import { decimalOfMillionths } from '../money/decimal';
import { DEFAULT_MIN_COVERAGE } from './evaluate-cover';
import { levelOf } from './payout-map';
import { coverOf, type ProductTerms } from './product';
import { sheetDigest } from './sheet-digest';

// The built-in product `default` (TERM-SHEETS.md example E): SPEC §7's catalog as a term sheet. Each
// cover is one phase over the whole term; drought's levels are per day of it (2.0 mm and 0.8 mm).

const wholeTerm = {
  from: { anchor: 'term_start', days: 0 },
  to: { anchor: 'term_end', days: 0 },
} as const;

export const DEFAULT_SHEET: TermSheet = {
  schema: TERM_SHEET_SCHEMA,
  name: 'CropCover default (SPEC §7 catalog)',
  amounts: { unit: 'share' },
  limit: 1,
  rounding: 'half_up',
  pricing: { credibility_seasons: 10, loading: 1.3, floor_of_base_rate: 0.5, maximum_rate: 0.5 },
  covers: [
    {
      peril: 'drought',
      index: 'cumulative_rainfall_mm',
      reading: 'rainfall_mm',
      limit: 1,
      base_rate: 0.05,
      exposure: 'term_days',
      irrigated_factor: 0.6,
      phases: [
        {
          id: 'term',
          window: wholeTerm,
          aggregate: 'sum',
          payout: { linear: { direction: 'below', trigger: { per_window_day: 2.0 }, exit: { per_window_day: 0.8 } } },
          limit: 1,
          settle: 'window_closed',
          min_coverage: 0.9,
        },
      ],
    },
    {
      peril: 'flood',
      index: 'max_5day_rainfall_mm',
      reading: 'rainfall_mm',
      limit: 1,
      base_rate: 0.03,
      exposure: 'term_days',
      phases: [
        {
          id: 'term',
          window: wholeTerm,
          aggregate: { rolling: { days: 5, stat: 'sum', pick: 'max' } },
          payout: { linear: { direction: 'above', trigger: 150, exit: 300 } },
          limit: 1,
          settle: 'any_time',
          min_coverage: 0.9,
        },
      ],
    },
    {
      peril: 'vegetation_stress',
      index: 'mean_ndvi_30d',
      reading: 'ndvi',
      limit: 1,
      base_rate: 0.04,
      exposure: 'term_days',
      phases: [
        {
          id: 'term',
          window: wholeTerm,
          aggregate: { rolling: { days: 30, stat: 'mean', pick: 'last' } },
          payout: { linear: { direction: 'below', trigger: 0.35, exit: 0.15 } },
          limit: 1,
          settle: { after_days: 30 },
          min_coverage: 0.9,
        },
      ],
    },
    {
      peril: 'storm',
      index: 'max_wind_speed_ms',
      reading: 'wind_speed_ms',
      limit: 1,
      base_rate: 0.02,
      exposure: 'term_days',
      phases: [
        {
          id: 'term',
          window: wholeTerm,
          aggregate: 'max',
          payout: { linear: { direction: 'above', trigger: 25, exit: 40 } },
          limit: 1,
          settle: 'any_time',
          min_coverage: 0.9,
        },
      ],
    },
  ],
};

export const DEFAULT_PRODUCT: ProductTerms = {
  ref: { product_id: DEFAULT_PRODUCT_ID, version: 1, digest: sheetDigest(DEFAULT_SHEET) },
  sheet: DEFAULT_SHEET,
};

const aggregationOf = (cover: Cover): TriggerAggregation => {
  const { aggregate } = cover.phases[0]!;
  if (aggregate === 'sum' || aggregate === 'max') return { kind: aggregate };
  const rolling = typeof aggregate !== 'string' && 'rolling' in aggregate ? aggregate.rolling : undefined;
  if (rolling?.stat === 'sum' && rolling.pick === 'max') return { kind: 'max_rolling_sum', days: rolling.days };
  if (rolling?.stat === 'mean' && rolling.pick === 'last') return { kind: 'mean_of_last_days', days: rolling.days };
  throw new RangeError(`${cover.peril} of the default product has no trigger terms`);
};

/** The trigger of a `default` cover for this term, as `PolicyIssued.triggers` has always frozen it (the
 *  sheet, frozen beside it, is what the policy pays on). */
export const triggerTermsFor = (peril: Peril, term: CoverTerm, sheet: TermSheet = DEFAULT_SHEET): TriggerTerms => {
  const cover = coverOf(sheet, peril);
  const phase = cover?.phases[0];
  if (cover === undefined || phase === undefined || !('linear' in phase.payout)) {
    throw new RangeError(`the default product has no ${peril} cover`);
  }
  const { linear } = phase.payout;
  const settle = phase.settle ?? 'any_time';
  return {
    peril,
    trigger_index: cover.index,
    reading: cover.reading,
    aggregation: aggregationOf(cover),
    comparison: linear.direction === 'below' ? 'lte' : 'gte',
    threshold: decimalOfMillionths(levelOf(linear.trigger, termDays(term))),
    exit: decimalOfMillionths(levelOf(linear.exit, termDays(term))),
    declarable: typeof settle === 'string' ? { kind: settle } : { kind: 'after_term_days', days: settle.after_days },
    min_coverage: phase.min_coverage ?? DEFAULT_MIN_COVERAGE,
  };
};

/** The completeness a policy's trigger asks for: as frozen at issue, or, for a policy issued before
 *  completeness was frozen into its terms, the catalog's 90%. */
export const minimumCoverageOf = (terms: TriggerTerms): number => terms.min_coverage ?? DEFAULT_MIN_COVERAGE;

import type {
  BreachDeclarable,
  Comparison,
  Peril,
  ReadingIndex,
  TriggerAggregation,
  TriggerIndex,
  TriggerTerms,
} from '@cropcover/contracts';
import { type CoverTerm, termDays } from './cover-term';
import { scaleExact, unscale } from './decimal';

/** A threshold or exit level: fixed, or per day of the term (the drought rainfall total scales with it). */
export type TriggerLevel =
  | { readonly per: 'policy'; readonly value: number }
  | { readonly per: 'term_day'; readonly value: number };

export interface TriggerRule {
  readonly peril: Peril;
  readonly triggerIndex: TriggerIndex;
  readonly reading: ReadingIndex;
  readonly aggregation: TriggerAggregation;
  readonly comparison: Comparison;
  readonly threshold: TriggerLevel;
  readonly exit: TriggerLevel;
  readonly declarable: BreachDeclarable;
  /** The fraction of a window's days that must hold a reading (SPEC §7 Completeness): a sum or a mean
   *  over fewer is skipped as `incomplete_data`; a maximum is evaluated on the days present. A past
   *  season counts for burning cost only when this complete, whatever the aggregation. */
  readonly minimumCoverage: number;
  /** Annual premium rate as a fraction of the sum insured; a term pays its share (term days / 365). */
  readonly baseRate: number;
  /** Factor on the base rate when the farm is irrigated (absent: no discount). */
  readonly irrigatedFactor?: number;
}

export interface ProductCatalog {
  readonly rules: Readonly<Record<Peril, TriggerRule>>;
  readonly pricing: {
    /** k of the credibility Z = n / (n + k) given to n complete past seasons: with k seasons the
     *  burning cost and the base rate weigh the same. A whole number. */
    readonly credibilitySeasons: number;
    /** Factor on the mean payout fraction of the past seasons. */
    readonly loading: number;
    /** A peril's rate never goes below this fraction of its (adjusted, term-scaled) base rate. */
    readonly floorOfBaseRate: number;
    /** A cover whose rate reaches this is refused as uninsurable. */
    readonly maximumRate: number;
  };
}

/** SPEC §7's trigger table and base rates. */
export const PRODUCT_CATALOG: ProductCatalog = {
  rules: {
    drought: {
      peril: 'drought',
      triggerIndex: 'cumulative_rainfall_mm',
      reading: 'rainfall_mm',
      aggregation: { kind: 'sum' },
      comparison: 'lte',
      threshold: { per: 'term_day', value: 2.0 },
      exit: { per: 'term_day', value: 0.8 },
      declarable: { kind: 'window_closed' },
      minimumCoverage: 0.9,
      baseRate: 0.05,
      irrigatedFactor: 0.6,
    },
    flood: {
      peril: 'flood',
      triggerIndex: 'max_5day_rainfall_mm',
      reading: 'rainfall_mm',
      aggregation: { kind: 'max_rolling_sum', days: 5 },
      comparison: 'gte',
      threshold: { per: 'policy', value: 150 },
      exit: { per: 'policy', value: 300 },
      declarable: { kind: 'any_time' },
      minimumCoverage: 0.9,
      baseRate: 0.03,
    },
    vegetation_stress: {
      peril: 'vegetation_stress',
      triggerIndex: 'mean_ndvi_30d',
      reading: 'ndvi',
      aggregation: { kind: 'mean_of_last_days', days: 30 },
      comparison: 'lte',
      threshold: { per: 'policy', value: 0.35 },
      exit: { per: 'policy', value: 0.15 },
      declarable: { kind: 'after_term_days', days: 30 },
      minimumCoverage: 0.9,
      baseRate: 0.04,
    },
    storm: {
      peril: 'storm',
      triggerIndex: 'max_wind_speed_ms',
      reading: 'wind_speed_ms',
      aggregation: { kind: 'max' },
      comparison: 'gte',
      threshold: { per: 'policy', value: 25 },
      exit: { per: 'policy', value: 40 },
      declarable: { kind: 'any_time' },
      minimumCoverage: 0.9,
      baseRate: 0.02,
    },
  },
  pricing: { credibilitySeasons: 10, loading: 1.3, floorOfBaseRate: 0.5, maximumRate: 0.5 },
};

/** Index values carry 6 decimals: finer than any sensor reports, coarse enough to stay exact. */
export const INDEX_PLACES = 6;

const levelFor = (level: TriggerLevel, term: CoverTerm): number => {
  const perUnit = scaleExact(level.value, INDEX_PLACES);
  if (perUnit === undefined)
    throw new RangeError(`catalog level ${level.value} has more than ${INDEX_PLACES} decimals`);
  return unscale(level.per === 'term_day' ? perUnit * BigInt(termDays(term)) : perUnit, INDEX_PLACES);
};

/** The trigger of `peril` for this term, as frozen into the policy at issue. */
export const triggerTermsFor = (
  peril: Peril,
  term: CoverTerm,
  catalog: ProductCatalog = PRODUCT_CATALOG,
): TriggerTerms => {
  const rule = catalog.rules[peril];
  return {
    peril,
    trigger_index: rule.triggerIndex,
    reading: rule.reading,
    aggregation: rule.aggregation,
    comparison: rule.comparison,
    threshold: levelFor(rule.threshold, term),
    exit: levelFor(rule.exit, term),
    declarable: rule.declarable,
    min_coverage: rule.minimumCoverage,
  };
};

/** The completeness a policy's trigger asks for: as frozen at issue, or, for a policy issued before
 *  completeness was frozen into its terms, the catalog's figure for the peril. */
export const minimumCoverageOf = (terms: TriggerTerms): number =>
  terms.min_coverage ?? PRODUCT_CATALOG.rules[terms.peril].minimumCoverage;

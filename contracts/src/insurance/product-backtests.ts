import { DateTime } from '../common';
import { CurrencyCode } from '../currency';
import { z } from '../zod';
import { hasAtMostDecimals } from './money-amount';
import { PageNumber, PageSize } from './pagination';
import { Peril } from './peril';
import { ProductChoice } from './products';
import { MonthDay, TermSheet } from './term-sheet';

// The product backtest (TERM-SHEETS.md §5.1): what a sheet would have paid at many locations over past
// seasons, through the one payout engine, as a job; with the losses the insurer observed, its basis risk.

export const MAX_BACKTEST_LOCATIONS = 1000;
/** Seasons are whole years: a century is more than any reading history holds. */
export const MAX_BACKTEST_SEASONS = 100;

const Year = z.number().int().min(1900).max(2200);
const SourceId = z.string().min(1).max(100);
const Location = z.string().min(1).max(200);

const Fraction = z
  .number()
  .min(0)
  .max(1000)
  .refine((value) => hasAtMostDecimals(value, 6), { message: 'must have at most 6 decimals' });

export const BacktestLocation = z
  .strictObject({ source_id: SourceId, location: Location })
  .openapi('ProductBacktestLocation');
export type BacktestLocation = z.infer<typeof BacktestLocation>;

export const ObservedOutcome = z
  .strictObject({
    /** Which requested location; `source_id` tells apart two sources with the same location name. */
    location: Location,
    source_id: SourceId.optional(),
    /** The year the season starts in. */
    season: Year,
    /** The loss the insurer observed, as a fraction (yield loss, mortality, loss ratio). */
    loss_ratio: Fraction,
  })
  .openapi('ProductBacktestOutcome');
export type ObservedOutcome = z.infer<typeof ObservedOutcome>;

const locationKey = (sourceId: string, location: string) => JSON.stringify([sourceId, location]);

export const ProductBacktestRequest = z
  .strictObject({
    /** A sheet given inline, or a product of the organization (`product`): exactly one. */
    sheet: TermSheet.optional(),
    product: ProductChoice.optional(),
    /** The covers backtested; absent: every cover of the sheet. */
    perils: z.array(Peril).min(1).optional(),
    /** The season of a sheet that names none (it must hold the covers' windows). */
    season: z.strictObject({ from: MonthDay, to: MonthDay }).optional(),
    locations: z.array(BacktestLocation).min(1).max(MAX_BACKTEST_LOCATIONS),
    /** The years the seasons start in, both included; every season must be over. */
    seasons: z.strictObject({ from: Year, to: Year }),
    /** Losses observed, for basis risk; `loss_threshold` goes with them. */
    outcomes: z
      .array(ObservedOutcome)
      .max(MAX_BACKTEST_LOCATIONS * MAX_BACKTEST_SEASONS)
      .optional(),
    /** A loss above it is a loss the index should have paid for. */
    loss_threshold: Fraction.optional(),
  })
  .superRefine((request, context) => {
    if ((request.sheet === undefined) === (request.product === undefined)) {
      context.addIssue({ code: 'custom', path: ['sheet'], message: 'give exactly one of sheet and product' });
    }
    const { from, to } = request.seasons;
    if (to < from) context.addIssue({ code: 'custom', path: ['seasons', 'to'], message: 'must not be before from' });
    else if (to - from + 1 > MAX_BACKTEST_SEASONS) {
      context.addIssue({ code: 'custom', path: ['seasons'], message: `at most ${MAX_BACKTEST_SEASONS} seasons` });
    }
    const keys = new Set<string>();
    request.locations.forEach(({ source_id, location }, at) => {
      const key = locationKey(source_id, location);
      if (keys.has(key)) context.addIssue({ code: 'custom', path: ['locations', at], message: 'listed twice' });
      keys.add(key);
    });
    if ((request.outcomes === undefined) !== (request.loss_threshold === undefined)) {
      context.addIssue({
        code: 'custom',
        path: ['loss_threshold'],
        message: 'outcomes and loss_threshold go together',
      });
    }
    const seen = new Set<string>();
    (request.outcomes ?? []).forEach((outcome, at) => {
      const matches = request.locations.filter(
        (candidate) =>
          candidate.location === outcome.location &&
          (outcome.source_id === undefined || candidate.source_id === outcome.source_id),
      );
      if (matches.length === 0) {
        context.addIssue({ code: 'custom', path: ['outcomes', at, 'location'], message: 'not a requested location' });
      } else if (matches.length > 1) {
        context.addIssue({
          code: 'custom',
          path: ['outcomes', at, 'source_id'],
          message: 'the location is requested on several sources: name the source',
        });
      }
      if (outcome.season < from || outcome.season > to) {
        context.addIssue({ code: 'custom', path: ['outcomes', at, 'season'], message: 'outside seasons' });
      }
      const key = `${matches[0]?.source_id}|${outcome.location}|${outcome.season}`;
      if (seen.has(key)) context.addIssue({ code: 'custom', path: ['outcomes', at], message: 'given twice' });
      seen.add(key);
    });
  })
  .openapi('ProductBacktestRequest');
export type ProductBacktestRequest = z.infer<typeof ProductBacktestRequest>;

/** A figure shown at 6 decimals, rounded once half up from the exact one. */
const Decimal6 = z.number();

export const CoverSeason = z
  .object({
    peril: Peril,
    /** complete: every phase (and sowing) read on at least its `min_coverage` of its window, as the
     *  burning cost counts a season; else why not. */
    status: z.enum(['complete', 'incomplete_data', 'no_data']),
    /** Days read ÷ days of the cover's phase windows. */
    coverage: Decimal6,
    /** The governing phase's index at the season's end; null when the cover could not be evaluated. */
    phase: z.string().nullable(),
    index: Decimal6.nullable(),
    /** The most the cover was due on any day of the season, as a share of the sum insured. */
    amount_due_share: Decimal6,
    /** That in major units of the sheet's basis sum insured (money sheets only), rounded as the sheet does. */
    amount_due: z.number().optional(),
  })
  .openapi('ProductBacktestCoverSeason');
export type CoverSeason = z.infer<typeof CoverSeason>;

export const LocationSeason = z
  .object({
    season: z.number().int(),
    season_start: z.string(),
    season_end: z.string(),
    /** Every cover complete: the season counts in the statistics and the basis risk. */
    counted: z.boolean(),
    /** Σ covers' amounts within the sheet's limit, as a share of the sum insured. */
    payout_share: Decimal6,
    payout: z.number().optional(),
    covers: z.array(CoverSeason),
  })
  .openapi('ProductBacktestSeason');
export type LocationSeason = z.infer<typeof LocationSeason>;

export const LocationStatistics = z
  .object({
    seasons_counted: z.number().int(),
    /** Mean payout share over the seasons counted; null when none counts. */
    average_loss_cost: Decimal6.nullable(),
    average_payout: z.number().nullable().optional(),
    /** Seasons counted with a payout ÷ seasons counted. */
    payout_frequency: Decimal6.nullable(),
    /** The season counted paying the most (the earlier on a tie); null when none counts. */
    worst_season: z
      .object({ season: z.number().int(), payout_share: Decimal6, payout: z.number().optional() })
      .nullable(),
  })
  .openapi('ProductBacktestStatistics');
export type LocationStatistics = z.infer<typeof LocationStatistics>;

export const BasisRisk = z
  .object({
    /** Seasons counted that have an observed outcome. */
    pairs: z.number().int(),
    /** Spearman's rank correlation of payout shares and loss ratios (ties by average ranks), rounded
     *  once to 6 decimals; null with fewer than 2 pairs or when either side is constant. */
    spearman: Decimal6.nullable(),
    losses_above_threshold: z.number().int(),
    payouts: z.number().int(),
    /** Pairs with a loss above the threshold and no payout. */
    false_negatives: z.number().int(),
    /** Pairs with a payout and no loss above the threshold. */
    false_positives: z.number().int(),
    /** false_negatives ÷ pairs, false_positives ÷ pairs; null without pairs. */
    false_negative_frequency: Decimal6.nullable(),
    false_positive_frequency: Decimal6.nullable(),
  })
  .openapi('ProductBacktestBasisRisk');
export type BasisRisk = z.infer<typeof BasisRisk>;

export const LocationBacktest = z
  .object({
    source_id: z.string(),
    location: z.string(),
    /** skipped: a cover reads its normals from a climatology that has none for the location
     *  (`no_climatology`) or whose periods are not its blocks (`climatology_period`): no season is read. */
    status: z.enum(['evaluated', 'skipped']),
    skip_reason: z
      .object({ code: z.enum(['no_climatology', 'climatology_period', 'period_mismatch']), detail: z.string() })
      .optional(),
    seasons: z.array(LocationSeason),
    statistics: LocationStatistics.nullable(),
    basis_risk: BasisRisk.optional(),
  })
  .openapi('ProductBacktestLocationResult');
export type LocationBacktest = z.infer<typeof LocationBacktest>;

export const ProductBacktestSummary = z
  .object({
    locations: z.number().int(),
    locations_evaluated: z.number().int(),
    /** Over every location's pairs together (present with outcomes). */
    basis_risk: BasisRisk.optional(),
  })
  .openapi('ProductBacktestSummary');
export type ProductBacktestSummary = z.infer<typeof ProductBacktestSummary>;

export const ProductBacktestJob = z
  .object({
    job_id: z.string(),
    status: z.enum(['queued', 'running', 'succeeded', 'failed']),
    requested_at: DateTime,
    completed_at: DateTime.nullable(),
    /** The product version backtested; null for a sheet given inline. */
    product: z.object({ product_id: z.string(), version: z.number().int(), digest: z.string() }).nullable(),
    perils: z.array(Peril),
    season: z.object({ from: z.string(), to: z.string() }),
    seasons: z.object({ from: z.number().int(), to: z.number().int() }),
    currency: CurrencyCode.optional(),
    error: z.object({ code: z.string(), detail: z.string() }).nullable(),
    /** Once succeeded: the summary and a page of the locations, in the order asked. */
    result: z
      .object({
        summary: ProductBacktestSummary,
        page: z.number().int(),
        page_size: z.number().int(),
        locations: z.array(LocationBacktest),
      })
      .nullable(),
  })
  .openapi('ProductBacktestJob');
export type ProductBacktestJob = z.infer<typeof ProductBacktestJob>;

export const ProductBacktestPathParams = z.strictObject({ job_id: z.string().min(1).max(100) });
export const ProductBacktestQuery = z.strictObject({ page: PageNumber, page_size: PageSize });
export type ProductBacktestQuery = z.infer<typeof ProductBacktestQuery>;

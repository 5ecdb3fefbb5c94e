import { DateTime } from '../common';
import { CalendarDate } from '../insurance/calendar-date';
import { Peril } from '../insurance/peril';
import { z } from '../zod';

// The as-if portfolio backtest (SPEC §7 "Portfolio backtest"): the book in force, its frozen sheets
// shifted back 1 … N whole years onto each policy's own source and location. A job: POST answers 202 with
// it, GET shows its progress and, once done, its result. Amounts in major units.

export const MAX_BACKTEST_SEASONS = 40;
export const DEFAULT_BACKTEST_SEASONS = 20;

export const PortfolioBacktestRequest = z
  .strictObject({
    seasons: z.number().int().min(1).max(MAX_BACKTEST_SEASONS).default(DEFAULT_BACKTEST_SEASONS),
    /** The book in force on this date (default today); its seasons are shifted back from there. */
    as_of: CalendarDate.optional(),
    /** Only these perils' covers (default every peril); a policy with none of them is left out. */
    perils: z
      .array(Peril)
      .min(1)
      .refine((perils) => new Set(perils).size === perils.length, 'duplicate peril')
      .optional(),
    /** Net of the programme's treaties of the period holding `as_of` (default true); false: net = gross. */
    apply_treaties: z.boolean().default(true),
  })
  .openapi('PortfolioBacktestRequest');
export type PortfolioBacktestRequest = z.infer<typeof PortfolioBacktestRequest>;

export const BacktestSeason = z
  .object({
    /** 1 = every policy's term one year back, … */
    years_back: z.number().int().positive(),
    gross: z.number(),
    /** After the programme's treaties, applied to the season as to one period. */
    net: z.number(),
    paying_zones: z.number().int(),
    paying_policies: z.number().int(),
    /** Sum insured of policies with a cover whose window lacked complete data that season. */
    exposure_incomplete: z.number(),
    /** At least 95% of the exposure was on complete windows. */
    complete: z.boolean(),
  })
  .openapi('BacktestSeason');
export type BacktestSeason = z.infer<typeof BacktestSeason>;

export const InsufficientSeasons = z.literal('insufficient_seasons');

/** The loss of a T-year return period read from the seasons: the k-th largest of N, k = ⌊N / T⌋, whose
 *  empirical return period N / k is at least T. Longer than N years: not read from data (null). */
export const ReturnPeriodLoss = z
  .union([
    z.object({ years: z.number().int(), loss: z.number(), empirical_return_period: z.number() }),
    z.object({ years: z.number().int(), loss: z.null(), reason: InsufficientSeasons }),
  ])
  .openapi('ReturnPeriodLoss');
export type ReturnPeriodLoss = z.infer<typeof ReturnPeriodLoss>;

export const LossStatistics = z
  .object({
    seasons: z.number().int(),
    average_annual_loss: z.number(),
    /** average_annual_loss ÷ total sum insured, 6 decimals. */
    loss_cost: z.number(),
    /** Sample standard deviation (N − 1) of the seasons' losses; null with one season. */
    standard_deviation: z.number().nullable(),
    maximum: z.number(),
    return_periods: z.array(ReturnPeriodLoss),
  })
  .openapi('LossStatistics');
export type LossStatistics = z.infer<typeof LossStatistics>;

export const BacktestZone = z
  .object({
    source_id: z.string(),
    location: z.string(),
    sum_insured: z.number(),
    average_annual_loss: z.number(),
    loss_cost: z.number(),
    paying_seasons: z.number().int(),
    /** The season the zone lost most in (the more recent on a tie); null when it never lost. */
    worst_season: z.object({ years_back: z.number().int(), loss: z.number() }).nullable(),
    /** The seasons (years back, most recent first) in which the zone's covers paid. */
    triggered_seasons: z.array(z.number().int().positive()),
  })
  .openapi('BacktestZone');
export type BacktestZone = z.infer<typeof BacktestZone>;

/** What the result was computed from, so a reader can tell two results of the same inputs: the
 *  programme's stream up to its revision as of `as_of` (the book in force), and exactly the readings read. */
export const BacktestInputs = z
  .object({
    /** Revision of the last event of `programme-<id>` taken (the book in force on `as_of`); null before any. */
    programme_revision: z.number().int().nullable(),
    readings: z.number().int(),
    /** sha256 over the programme revision, the book (policy, sum insured, zones read) and each zone's
     *  readings (source, location, date, value, revision) in order. */
    digest: z.string(),
  })
  .openapi('BacktestInputs');
export type BacktestInputs = z.infer<typeof BacktestInputs>;

export const PortfolioBacktestResult = z
  .object({
    currency: z.string(),
    policies: z.number().int(),
    total_sum_insured: z.number(),
    seasons: z.array(BacktestSeason),
    gross: LossStatistics,
    net: LossStatistics,
    zones: z.array(BacktestZone),
    inputs: BacktestInputs,
  })
  .openapi('PortfolioBacktestResult');
export type PortfolioBacktestResult = z.infer<typeof PortfolioBacktestResult>;

export const BacktestJobStatus = z.enum(['queued', 'running', 'succeeded', 'failed']).openapi('BacktestJobStatus');
export type BacktestJobStatus = z.infer<typeof BacktestJobStatus>;

export const PortfolioBacktestJob = z
  .object({
    job_id: z.string(),
    programme_id: z.string(),
    status: BacktestJobStatus,
    seasons: z.number().int(),
    as_of: CalendarDate,
    /** The perils asked for; absent: every peril. */
    perils: z.array(Peril).optional(),
    apply_treaties: z.boolean(),
    requested_at: DateTime,
    started_at: DateTime.optional(),
    completed_at: DateTime.optional(),
    /** Once succeeded. */
    result: PortfolioBacktestResult.optional(),
    /** Once failed: why, as a problem code and detail. */
    error: z.object({ code: z.string(), detail: z.string() }).optional(),
  })
  .openapi('PortfolioBacktestJob');
export type PortfolioBacktestJob = z.infer<typeof PortfolioBacktestJob>;

export const BacktestJobPathParams = z.strictObject({
  programme_id: z.string().min(1).max(100),
  job_id: z.string().min(1).max(100),
});

export const UNKNOWN_BACKTEST = {
  description: "Unknown programme or backtest, or another organization's",
  codes: ['programme_not_found', 'backtest_not_found'],
} as const;

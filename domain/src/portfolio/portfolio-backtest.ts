import type { BacktestInputs, PortfolioBacktestResult, TreatyTerms } from '@cropcover/contracts';
import { toMajorUnits } from '../insurance/money/minor-units';
import { zoneKey } from '../programmes/accumulation-zone';
import { applyTreaties } from '../reinsurance/apply-treaties';
import type { AsIfOutcome } from './as-if-book';
import { lossFigures, lossStatistics } from './loss-statistics';

/** A season is complete when at least 95% of the book's exposure was on complete windows (SPEC §7). */
const COMPLETE_SHARE_PERCENT = 95;

export interface BacktestTreaties {
  /** The programme's treaties, in the order they apply. */
  readonly treaties: readonly TreatyTerms[];
  /** The book's premium: what ratios of premium in the treaties apply to. */
  readonly grossPremiumMinor: number;
}

/** The season's loss net of the treaties, the season taken as one treaty period and each zone's loss in
 *  it as one cat XL event (the as-if does not know the days a season's losses fell on). */
const netOf = (outcome: AsIfOutcome, at: number, { treaties, grossPremiumMinor }: BacktestTreaties): number =>
  applyTreaties(treaties, {
    grossPremiumMinor,
    grossLossMinor: outcome.seasons[at]!.grossMinor,
    events: outcome.zones.map((zone) => ({ key: zoneKey(zone.zone), startsAt: '', lossMinor: zone.lossesMinor[at]! })),
  }).netLossMinor;

/** The season (index) of the largest loss, the most recent of equal ones; −1 when nothing was lost. */
const worstSeason = (losses: readonly number[]): number => {
  let worst = -1;
  losses.forEach((loss, at) => {
    if (loss > 0 && (worst < 0 || loss > losses[worst]!)) worst = at;
  });
  return worst;
};

/** The as-if outcome as the backtest job's result: per season, gross and net; the statistics of both;
 *  per zone its loss cost and worst season (the more recent on a tie). */
export const portfolioBacktestResult = (
  outcome: AsIfOutcome,
  treaties: BacktestTreaties,
  currency: string,
  inputs: BacktestInputs,
): PortfolioBacktestResult => {
  const money = (minor: number) => toMajorUnits(minor, currency);
  const net = outcome.seasons.map((_, at) => netOf(outcome, at, treaties));
  return {
    currency,
    policies: outcome.policies,
    total_sum_insured: money(outcome.totalSumInsuredMinor),
    seasons: outcome.seasons.map((season, at) => ({
      years_back: season.yearsBack,
      gross: money(season.grossMinor),
      net: money(net[at]!),
      paying_zones: season.payingZones,
      paying_policies: season.payingPolicies,
      exposure_incomplete: money(season.exposureIncompleteMinor),
      complete:
        (outcome.totalSumInsuredMinor - season.exposureIncompleteMinor) * 100 >=
        COMPLETE_SHARE_PERCENT * outcome.totalSumInsuredMinor,
    })),
    gross: lossStatistics(
      lossFigures(
        outcome.seasons.map((season) => season.grossMinor),
        outcome.totalSumInsuredMinor,
      ),
      currency,
    ),
    net: lossStatistics(lossFigures(net, outcome.totalSumInsuredMinor), currency),
    zones: outcome.zones.map((zone) => {
      const figures = lossFigures(zone.lossesMinor, zone.sumInsuredMinor);
      const worst = worstSeason(zone.lossesMinor);
      return {
        source_id: zone.zone.source_id,
        location: zone.zone.location,
        sum_insured: money(zone.sumInsuredMinor),
        average_annual_loss: money(figures.averageMinor),
        loss_cost: lossStatistics(figures, currency).loss_cost,
        paying_seasons: zone.lossesMinor.filter((loss) => loss > 0).length,
        worst_season: worst < 0 ? null : { years_back: worst + 1, loss: money(zone.lossesMinor[worst]!) },
        triggered_seasons: zone.lossesMinor.flatMap((loss, at) => (loss > 0 ? [at + 1] : [])),
      };
    }),
    inputs,
  };
};

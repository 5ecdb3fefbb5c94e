import type { BasisRisk, LocationBacktest, ProductBacktestJob } from '@cropcover/contracts';
import type { SeasonChartModel } from '../../chart/season-chart';
import { money } from '../../format';

// A product backtest's results as the page reads them (TERM-SHEETS.md "Backtesting a product"): which
// location is shown season by season, its amounts due in the sheet's money (or as shares of the sum
// insured for a share sheet), and the figures in words.

/** 0.166667 → `16.67 %`; a figure the API could not compute (no season counted) → `—`. */
export const shareText = (share: number | null | undefined): string =>
  share === null || share === undefined ? '—' : `${(share * 100).toFixed(2)} %`;

/** An amount of the job: money of the sheet's basis sum insured, else a share of the sum insured. */
export const amountText = (job: ProductBacktestJob, share: number, amount: number | null | undefined): string =>
  job.currency === undefined || amount === null || amount === undefined
    ? `${shareText(share)} of the sum insured`
    : money(amount, job.currency);

/** The location the address names (`source`, `location`), else the first one evaluated, else the first. */
export const selectedLocation = (
  locations: readonly LocationBacktest[],
  sourceId: string | null,
  location: string | null,
): LocationBacktest | undefined =>
  locations.find((each) => each.source_id === sourceId && each.location === location) ??
  locations.find((each) => each.status === 'evaluated') ??
  locations[0];

/** `1 of 4 (25.00 %)`: a count of the pairs and its frequency. */
export const ofPairs = (count: number, pairs: number, frequency: number | null): string =>
  `${count} of ${pairs} (${shareText(frequency)})`;

/** The basis risk in a line, as the locations' table and the summary say it. */
export const basisRiskText = (risk: BasisRisk): string =>
  risk.pairs === 0
    ? 'no season counted has an observed loss'
    : `Spearman ρ ${risk.spearman === null ? '— (too few or constant pairs)' : risk.spearman.toFixed(3)}; ` +
      `unpaid losses ${ofPairs(risk.false_negatives, risk.pairs, risk.false_negative_frequency)}; ` +
      `payouts without a loss ${ofPairs(risk.false_positives, risk.pairs, risk.false_positive_frequency)}`;

/** What the location was due each season, oldest first, with its average over the seasons counted: money
 *  for a money sheet, else percent of the sum insured. A season not counted is drawn as incomplete. */
export const amountDueChart = (job: ProductBacktestJob, location: LocationBacktest): SeasonChartModel => {
  const { currency } = job;
  const inMoney = currency !== undefined;
  const drawnValue = (share: number, amount: number | null | undefined) =>
    inMoney ? (amount ?? 0) : Number((share * 100).toFixed(4));
  const seasons = [...location.seasons].sort((a, b) => a.season - b.season);
  const { statistics } = location;
  const average =
    statistics === null || statistics.average_loss_cost === null
      ? undefined
      : drawnValue(statistics.average_loss_cost, statistics.average_payout);
  const averageText =
    statistics === null || average === undefined
      ? ''
      : amountText(job, statistics.average_loss_cost ?? 0, statistics.average_payout);
  const name = `${location.location} (${location.source_id})`;
  return {
    id: 'amount-due-seasons',
    title: `Amount due per season at ${name}, ${inMoney ? currency : '% of the sum insured'}`,
    description:
      `What the sheet would have paid at ${name} in each of ${seasons.length} seasons, oldest first` +
      (average === undefined
        ? '; no season counted.'
        : `, with the average over the seasons counted (${averageText}).`),
    unit: inMoney ? currency : '% of sum insured',
    series: [{ kind: 'due', label: 'amount due' }],
    bars: seasons.map((season) => ({
      key: String(season.season),
      label: String(season.season),
      values: [drawnValue(season.payout_share, season.payout)],
      complete: season.counted,
    })),
    averages: average === undefined ? [] : [{ kind: 'due', label: `average ${averageText}`, value: average }],
  };
};

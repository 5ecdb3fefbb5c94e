import type { PortfolioBacktestResult } from '@cropcover/contracts';

// The as-if losses of a portfolio backtest as a chart reads them: each past season, oldest first, its
// gross and net loss, and the averages drawn across them.

export interface AsIfSeason {
  readonly yearsBack: number;
  /** The year the shifted seasons start in: the book's as-of year less `yearsBack`. */
  readonly year: number;
  readonly gross: number;
  readonly net: number;
  readonly complete: boolean;
}

export interface AsIfSeasons {
  readonly seasons: readonly AsIfSeason[];
  readonly averageGross: number;
  readonly averageNet: number;
}

export const asIfSeasons = (result: PortfolioBacktestResult, asOf: string): AsIfSeasons => {
  const asOfYear = Number(asOf.slice(0, 4));
  return {
    seasons: [...result.seasons]
      .sort((a, b) => b.years_back - a.years_back)
      .map((season) => ({
        yearsBack: season.years_back,
        year: asOfYear - season.years_back,
        gross: season.gross,
        net: season.net,
        complete: season.complete,
      })),
    averageGross: result.gross.average_annual_loss,
    averageNet: result.net.average_annual_loss,
  };
};

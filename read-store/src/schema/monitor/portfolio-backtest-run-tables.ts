import type { JsonDocumentColumn, LeasedRunColumns } from './leased-run-columns';

/** The run of a requested backtest, then its result. */
export interface PortfolioBacktestRunsTable extends LeasedRunColumns {
  /** The PortfolioBacktestResult once succeeded. */
  result: JsonDocumentColumn;
}

export interface PortfolioBacktestRunTables {
  portfolio_backtest_runs: PortfolioBacktestRunsTable;
}

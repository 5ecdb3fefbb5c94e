import type { CalendarDateColumn } from '../../calendar-date-column';
import type { Timestamp } from '../../columns';

/** An as-if portfolio backtest asked for (SPEC §7 "Portfolio backtest"), written by the command API when it
 *  answers 202: the job's inputs. Its run is the monitor's row (`portfolio_backtest_runs`); a request
 *  without one is queued, and stays so across restarts until a monitor claims it. */
export interface PortfolioBacktestRequestsTable {
  job_id: string;
  programme_id: string;
  organization_id: string;
  seasons: number;
  as_of: CalendarDateColumn;
  /** JSON array of perils, or null for every peril. */
  perils: string | null;
  apply_treaties: boolean;
  requested_at: Timestamp;
}

export interface PortfolioBacktestRequestTables {
  portfolio_backtest_requests: PortfolioBacktestRequestsTable;
}

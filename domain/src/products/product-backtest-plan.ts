import type { MonthDay, Peril, PolicyProduct, ProductBacktestRequest, TermSheet } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import { termDays } from '../insurance/calendar/cover-term';
import type { ProductTerms } from '../insurance/term-sheet/product';
import { seasonStartingIn } from '../insurance/term-sheet/windows';
import { MAX_TERM_DAYS, refuseWindowsOutsideTerm } from '../insurance/underwriting/priced-cover';
import type { BacktestYears } from './product-backtest';
import { refuseInvalidSheet } from './register-product-version';

// What a product backtest runs (TERM-SHEETS.md §5.1), checked before anything is stored: a valid sheet,
// covers it has, a season holding their windows, and seasons that are over.

export interface ProductBacktestPlan {
  readonly sheet: TermSheet;
  /** The product version, or null for a sheet given inline. */
  readonly product: PolicyProduct | null;
  readonly perils: readonly Peril[];
  readonly season: { readonly from: MonthDay; readonly to: MonthDay };
  readonly years: BacktestYears;
}

const seasonOf = (sheet: TermSheet, asked: ProductBacktestRequest['season']) => {
  if (sheet.season === undefined) {
    if (asked === undefined) {
      throw new DomainError('rejected', 'season_missing', 'the sheet names no season: give one as season {from, to}');
    }
    return asked;
  }
  if (asked !== undefined && (asked.from !== sheet.season.from || asked.to !== sheet.season.to)) {
    throw new DomainError(
      'rejected',
      'term_not_product_season',
      `the sheet's season runs ${sheet.season.from} to ${sheet.season.to}, not ${asked.from} to ${asked.to}`,
    );
  }
  return sheet.season;
};

/** The backtest of `product` (a registered version) or of the request's inline sheet, as of `today`. */
export const planProductBacktest = (
  request: ProductBacktestRequest,
  product: ProductTerms | undefined,
  today: string,
): ProductBacktestPlan => {
  const sheet = product?.sheet ?? request.sheet!;
  if (product === undefined) refuseInvalidSheet(sheet);
  const perils = request.perils ?? sheet.covers.map((cover) => cover.peril);
  const missing = perils.filter((peril) => !sheet.covers.some((cover) => cover.peril === peril));
  if (missing.length > 0) {
    throw new DomainError('rejected', 'peril_not_in_product', `the sheet has no cover of ${missing.join(', ')}`);
  }
  const season = seasonOf(sheet, request.season);
  const last = seasonStartingIn(season, request.seasons.to);
  if (termDays(last) > MAX_TERM_DAYS) {
    throw new DomainError('rejected', 'invalid_term', `the season ${season.from} to ${season.to} is over 366 days`);
  }
  refuseWindowsOutsideTerm(sheet, perils, last);
  if (last.end >= today) {
    throw new DomainError(
      'rejected',
      'seasons_not_past',
      `the season of ${request.seasons.to} ends ${last.end}: a backtest reads seasons over before today (${today})`,
    );
  }
  return { sheet, product: product?.ref ?? null, perils, season, years: request.seasons };
};

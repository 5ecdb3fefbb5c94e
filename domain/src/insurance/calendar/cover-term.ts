import { daysBetween, shiftYearsBack } from './calendar-date';

/** The dates a policy covers, both included. */
export interface CoverTerm {
  readonly start: string;
  readonly end: string;
}

/** Days covered, both ends included: the unit of the drought threshold and of the 366-day limit. */
export const termDays = (term: CoverTerm): number => daysBetween(term.start, term.end) + 1;

/** The same cover `years` earlier: the season a backtest or the burning cost looks at. */
export const termYearsBack = (term: CoverTerm, years: number): CoverTerm => ({
  start: shiftYearsBack(term.start, years),
  end: shiftYearsBack(term.end, years),
});

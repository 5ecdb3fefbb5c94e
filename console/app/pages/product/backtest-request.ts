import type { ObservedOutcome, ProductBacktestRequest } from '@cropcover/contracts';

// The product page's backtest form as the API's request (TERM-SHEETS.md "Backtesting a product"): one
// source, its locations one a line, the years the seasons start in, and optionally the losses observed
// with the threshold above which the index should have paid. What the form can tell is wrong is said
// before anything is sent; the rest (a location listed twice, a season not yet over) is the API's to
// refuse, and the console shows its answer.

export interface BacktestForm {
  readonly sourceId: string;
  /** One location a line, named as readings are posted to the source. */
  readonly locations: string;
  readonly from: string;
  readonly to: string;
  /** One observed loss a line: `location season loss_ratio`, e.g. `-1.25,36.75 2009 0.62`. */
  readonly outcomes: string;
  readonly lossThreshold: string;
}

export type BacktestRequestOrProblem =
  | { readonly request: ProductBacktestRequest }
  | { readonly problem: string; readonly request?: undefined };

/** The form a product page opens with: its own version, the twenty seasons before this year. */
export const blankBacktestForm = (today: string): BacktestForm => {
  const year = Number(today.slice(0, 4));
  return {
    sourceId: '',
    locations: '',
    from: String(year - 20),
    to: String(year - 1),
    outcomes: '',
    lossThreshold: '',
  };
};

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

const yearOf = (text: string): number | undefined => (/^\d{4}$/.test(text.trim()) ? Number(text) : undefined);

const numberOf = (text: string): number | undefined => {
  const trimmed = text.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : undefined;
};

/** `-1.25,36.75 2009 0.62`: the last two words are the season and the loss, the rest the location
 *  (a station's name may hold spaces). */
const outcomeOf = (line: string): ObservedOutcome | undefined => {
  const words = line.split(/\s+/);
  if (words.length < 3) return undefined;
  const season = yearOf(words.at(-2)!);
  const lossRatio = numberOf(words.at(-1)!);
  if (season === undefined || lossRatio === undefined) return undefined;
  return { location: words.slice(0, -2).join(' '), season, loss_ratio: lossRatio };
};

export const backtestRequest = (
  product: { readonly product_id: string; readonly version: number; readonly digest: string },
  form: BacktestForm,
): BacktestRequestOrProblem => {
  const sourceId = form.sourceId.trim();
  if (sourceId === '') return { problem: 'Name the source the locations are read from.' };
  const locations = lines(form.locations);
  if (locations.length === 0) return { problem: 'Give at least one location, one a line.' };
  const from = yearOf(form.from);
  const to = yearOf(form.to);
  if (from === undefined || to === undefined) return { problem: 'The seasons are years, such as 2005 to 2024.' };
  const request: ProductBacktestRequest = {
    product: { product_id: product.product_id, version: product.version, digest: product.digest },
    locations: locations.map((location) => ({ source_id: sourceId, location })),
    seasons: { from, to },
  };
  const outcomeLines = lines(form.outcomes);
  const threshold = form.lossThreshold.trim();
  if (outcomeLines.length === 0) {
    return threshold === ''
      ? { request }
      : { problem: 'A loss threshold goes with observed losses: give them, or clear the threshold.' };
  }
  const outcomes: ObservedOutcome[] = [];
  for (const [at, line] of outcomeLines.entries()) {
    const outcome = outcomeOf(line);
    if (outcome === undefined)
      return { problem: `Observed loss ${at + 1} (“${line}”) is not “location season loss ratio”.` };
    outcomes.push(outcome);
  }
  const lossThreshold = numberOf(threshold);
  if (lossThreshold === undefined)
    return { problem: 'Observed losses need the loss threshold above which the index should have paid.' };
  return { request: { ...request, outcomes, loss_threshold: lossThreshold } };
};

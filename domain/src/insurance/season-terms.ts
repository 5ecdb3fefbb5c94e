import type { TriggerTerms } from '@cropcover/contracts';
import { type CoverTerm, termDays } from './cover-term';
import { divideRounded, scaleExact, unscale } from './decimal';
import { INDEX_PLACES } from './product-catalog';

const indexUnits = (level: number): bigint => {
  const units = scaleExact(level, INDEX_PLACES);
  if (units === undefined) throw new RangeError(`trigger level ${level} has more than ${INDEX_PLACES} decimals`);
  return units;
};

/** A cover's trigger as it applies to the same cover shifted back to `season` (a backtest, a past season
 *  of the burning cost). A summed index (drought's rainfall total) has levels per term day (SPEC §7:
 *  2.0 mm × term days), so they follow the season's own day count: a 366-day term's 732 mm is 730 mm
 *  over a 365-day season, and exactly 2 mm a day is exactly at the threshold there, never below it. Every
 *  other trigger's levels are per policy and stay as they are. */
export const seasonTriggerTerms = (terms: TriggerTerms, term: CoverTerm, season: CoverTerm): TriggerTerms => {
  const days = termDays(term);
  const seasonDays = termDays(season);
  if (terms.aggregation.kind !== 'sum' || seasonDays === days) return terms;
  const scaled = (level: number): number =>
    unscale(divideRounded(indexUnits(level) * BigInt(seasonDays), BigInt(days)), INDEX_PLACES);
  return { ...terms, threshold: scaled(terms.threshold), exit: scaled(terms.exit) };
};

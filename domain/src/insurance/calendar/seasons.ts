import { type CoverTerm, termYearsBack } from './cover-term';

/** The past seasons of a term: the same dates 1, 2, … whole years back (or what `yearsBack` makes of
 *  them: a product's fixed season), only those that ended before `today` (complete), back to the one
 *  that still reaches the earliest reading. */
export const pastSeasons = (
  term: CoverTerm,
  today: string,
  earliestReading: string | undefined,
  yearsBack: (years: number) => CoverTerm = (years) => termYearsBack(term, years),
): CoverTerm[] => {
  const seasons: CoverTerm[] = [];
  if (earliestReading === undefined) return seasons;
  for (let years = 1; ; years += 1) {
    const season = yearsBack(years);
    if (season.end < earliestReading) return seasons;
    if (season.end < today) seasons.push(season);
  }
};

import type { Cover, SheetAmounts } from '@cropcover/contracts';
import type { SeasonReadings } from '../index-data/season-readings';
import { millionthsOfRational } from '../money/rational';
import { seasonShare } from '../term-sheet/evaluate-cover';
import type { SeriesFrame } from '../term-sheet/index-pipeline';

// The burning cost prices a cover on what it would have paid in its past seasons (TERM-SHEETS.md §2.7),
// by the very evaluation that pays it: each day of a season is what daily monitoring would have
// evaluated as of that day, and `seasonShare` finds the most it would have been due without
// evaluating the season once per day.

/** What the cover would have paid at most in a past season, in millionths of the sum insured; undefined
 *  when the season's readings do not cover enough of its windows to count as a season of history. */
export const seasonLossPpm = (
  cover: Cover,
  amounts: SheetAmounts,
  season: SeasonReadings,
  source?: SeriesFrame,
): number | undefined => {
  const share = seasonShare({ cover, amounts, term: season.season, readings: season.readings, source });
  return share === undefined ? undefined : millionthsOfRational(share);
};

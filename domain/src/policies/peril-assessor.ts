import type { Cover, SheetAmounts } from '@cropcover/contracts';
import type { CoverTerm } from '../insurance/calendar/cover-term';
import { dayValuesIn } from '../insurance/index-data/day-values';
import type { DayValue, IndexObservation } from '../insurance/index-data/index-observation';
import { type ReadingsUsed, readingsUsedOf } from '../insurance/index-data/readings-provenance';
import { type CoverOutcome, evaluateCover } from '../insurance/term-sheet/evaluate-cover';
import type { SeriesFrame } from '../insurance/term-sheet/index-pipeline';

/** A cover to evaluate, and the key that names it: its product version's digest, its peril, its source's
 *  cadence and the climatology it froze, which say everything about it. */
export interface AssessedCover {
  readonly key: string;
  readonly cover: Cover;
  readonly amounts: SheetAmounts;
  readonly source?: SeriesFrame | undefined;
}

/** What deciding an evaluation works out of each cover's readings: the cover's outcome and what a range
 *  of the readings holds. Both depend only on the cover, the readings, the day and the term. */
export interface PerilAssessor {
  outcome(assessed: AssessedCover, readings: readonly IndexObservation[], asOf: string, term: CoverTerm): CoverOutcome;
  readingsUsed(aggregate: string, readings: readonly IndexObservation[], from: string, to: string): ReadingsUsed;
}

/** Works everything out for each evaluation: what a single request does. */
export const assessEachTime: PerilAssessor = {
  outcome: ({ cover, amounts, source }, readings, asOf, term) =>
    evaluateCover({ cover, amounts, term, readings: dayValuesIn(readings, term.start, term.end), source }, asOf),
  readingsUsed: readingsUsedOf,
};

/** Works each outcome out once per list of readings, cover, day and term, and hands the same answer to
 *  every later policy that asks: a monitor pass gives thousands of policies on one grid cell the same
 *  list (`sharedReadingHistory`), and policies sold from one product share their covers. The outcome is
 *  independent of the sum insured, so every policy of the cell takes its own money from the same one.
 *  The answers are kept by the list itself (a list of readings is never changed once read), so they go
 *  when it does. */
export const sharedPerilAssessor = (): PerilAssessor => {
  const byReadings = new WeakMap<readonly IndexObservation[], Map<string, CoverOutcome | ReadingsUsed | DayValue[]>>();
  const remembered = <Answer extends CoverOutcome | ReadingsUsed | DayValue[]>(
    readings: readonly IndexObservation[],
    key: string,
    workOut: () => Answer,
  ): Answer => {
    let answers = byReadings.get(readings);
    if (answers === undefined) {
      answers = new Map();
      byReadings.set(readings, answers);
    }
    const known = answers.get(key) as Answer | undefined;
    if (known !== undefined) return known;
    const answer = workOut();
    answers.set(key, answer);
    return answer;
  };
  return {
    outcome: ({ key, cover, amounts, source }, readings, asOf, term) =>
      remembered(readings, `outcome|${key}|${asOf}|${term.start}|${term.end}`, () =>
        evaluateCover(
          {
            cover,
            amounts,
            term,
            readings: remembered(readings, `days|${term.start}|${term.end}`, () =>
              dayValuesIn(readings, term.start, term.end),
            ),
            source,
          },
          asOf,
        ),
      ),
    readingsUsed: (aggregate, readings, from, to) =>
      remembered(readings, `used|${aggregate}|${from}|${to}`, () => readingsUsedOf(aggregate, readings, from, to)),
  };
};

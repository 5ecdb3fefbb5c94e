import type { PerilDataSource, ReadingsProvenance, TriggerAggregation, TriggerTerms } from '@cropcover/contracts';
import type { CoverTerm } from '../insurance/cover-term';
import { provenanceOf, type ReadingsUsed, readingsUsedOf } from '../insurance/readings-provenance';
import { evaluateTrigger, type IndexObservation, type TriggerOutcome } from '../insurance/trigger-evaluation';

/** What deciding an evaluation works out of each peril's readings: the trigger's outcome and what the
 *  aggregate read. Both depend only on the terms, the readings, the day and the term. */
export interface PerilAssessor {
  outcome(terms: TriggerTerms, readings: readonly IndexObservation[], asOf: string, term: CoverTerm): TriggerOutcome;
  provenance(
    data: PerilDataSource,
    aggregation: TriggerAggregation,
    readings: readonly IndexObservation[],
    windowStart: string,
    windowEnd: string,
  ): ReadingsProvenance;
}

/** Works everything out for each evaluation: what a single request does. */
export const assessEachTime: PerilAssessor = {
  outcome: evaluateTrigger,
  provenance: provenanceOf,
};

/** Works each outcome out once per list of readings, terms, day and term, and hands the same answer to
 *  every later policy that asks: a monitor pass gives thousands of policies on one grid cell the same
 *  list (`sharedReadingHistory`), and policies sold from one product share their terms. The answers are
 *  kept by the list itself (a list of readings is never changed once read), so they go when it does. */
export const sharedPerilAssessor = (): PerilAssessor => {
  const byReadings = new WeakMap<readonly IndexObservation[], Map<string, TriggerOutcome | ReadingsUsed>>();
  const remembered = <Answer extends TriggerOutcome | ReadingsUsed>(
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
    outcome: (terms, readings, asOf, term) =>
      remembered(readings, JSON.stringify(['outcome', terms, asOf, term.start, term.end]), () =>
        evaluateTrigger(terms, readings, asOf, term),
      ),
    provenance: (data, aggregation, readings, windowStart, windowEnd) => ({
      ...data,
      ...remembered(readings, JSON.stringify(['provenance', aggregation, windowStart, windowEnd]), () =>
        readingsUsedOf(aggregation, readings, windowStart, windowEnd),
      ),
    }),
  };
};

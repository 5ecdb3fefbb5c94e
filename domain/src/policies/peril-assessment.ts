import type { DataCoverage } from '@cropcover/contracts';
import type { CoverTerm } from '../insurance/cover-term';
import type { ReadingHistory } from '../insurance/reading-history';
import type { Coverage, TriggerOutcome } from '../insurance/trigger-evaluation';
import { assessEachTime, type PerilAssessor } from './peril-assessor';
import type { IssuedPolicy, PerilCover } from './policy';

export interface PerilAssessment {
  readonly cover: PerilCover;
  readonly outcome: TriggerOutcome;
}

/** Every peril's trigger on `term` as of `asOf`, in the policy's peril order. */
export const assessPerils = (
  policy: IssuedPolicy,
  readings: ReadingHistory,
  asOf: string,
  term: CoverTerm,
  assessor: PerilAssessor = assessEachTime,
): PerilAssessment[] =>
  policy.perils.map((cover) => ({
    cover,
    outcome: assessor.outcome(cover.terms, readings[cover.terms.peril] ?? [], asOf, term),
  }));

export const policyTerm = (policy: IssuedPolicy): CoverTerm => ({
  start: policy.issued.term_start,
  end: policy.issued.term_end,
});

export const coverageOnTheWire = ({ daysWithReading, daysInWindow }: Coverage): DataCoverage => ({
  days_with_reading: daysWithReading,
  days_in_window: daysInWindow,
});

import type { DataCoverage } from '@cropcover/contracts';
import type { CoverTerm } from '../insurance/calendar/cover-term';
import type { ReadingHistory } from '../insurance/index-data/reading-history';
import type { CoverOutcome } from '../insurance/term-sheet/evaluate-cover';
import type { Coverage } from '../insurance/term-sheet/index-pipeline';
import { assessEachTime, type PerilAssessor } from './peril-assessor';
import type { IssuedPolicy, PerilCover } from './policy';

export interface PerilAssessment {
  readonly cover: PerilCover;
  readonly outcome: CoverOutcome;
}

/** What names the reader of a cover's readings in its provenance: `<product>@<version>#<peril>`. */
export const provenanceAggregate = (policy: IssuedPolicy, cover: PerilCover): string =>
  `${policy.product.product_id}@${policy.product.version}#${cover.terms.peril}`;

/** Every cover of the policy on `term` as of `asOf`, in the policy's peril order. */
export const assessPerils = (
  policy: IssuedPolicy,
  readings: ReadingHistory,
  asOf: string,
  term: CoverTerm,
  assessor: PerilAssessor = assessEachTime,
): PerilAssessment[] =>
  policy.perils.map((cover) => ({
    cover,
    outcome: assessor.outcome(
      {
        key: `${policy.product.digest}#${cover.terms.peril}#${cover.data.cadence ?? ''}#${cover.data.climatology?.digest ?? ''}`,
        cover: cover.terms,
        amounts: policy.sheet.amounts,
        source: cover.data,
      },
      readings[cover.terms.peril] ?? [],
      asOf,
      term,
    ),
  }));

export const policyTerm = (policy: IssuedPolicy): CoverTerm => ({
  start: policy.issued.term_start,
  end: policy.issued.term_end,
});

export const coverageOnTheWire = ({ daysWithReading, daysInWindow }: Coverage): DataCoverage => ({
  days_with_reading: daysWithReading,
  days_in_window: daysInWindow,
});

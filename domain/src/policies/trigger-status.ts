import type { TriggerStatus } from '@cropcover/contracts';
import { earlierDate } from '../insurance/calendar-date';
import type { CoverTerm } from '../insurance/cover-term';
import type { ReadingHistory } from '../insurance/reading-history';
import type { IndexObservation } from '../insurance/trigger-evaluation';
import { assessPerils, coverageOnTheWire, policyTerm } from './peril-assessment';
import type { IssuedPolicy } from './policy';

/** The dates whose readings the live trigger status looks at: [term start, min(today, term end)], or
 *  undefined before the term has begun (nothing to read yet). */
export const liveTriggerWindow = (policy: IssuedPolicy, today: string): CoverTerm | undefined => {
  const end = earlierDate(today, policy.issued.term_end);
  return end < policy.issued.term_start ? undefined : { start: policy.issued.term_start, end };
};

const anyReadingIn = (readings: readonly IndexObservation[], window: CoverTerm | undefined): boolean =>
  window !== undefined && readings.some((reading) => reading.date >= window.start && reading.date <= window.end);

/** Every peril's trigger as it stands today under the frozen terms: `current_index_reading` is the
 *  aggregate so far with its `coverage` (null, with `skipped_reason`, when the data is not enough to
 *  evaluate), `data_available` whether the window has any reading of the peril's index at all — a vegetation trigger with NDVI only older than its last 30 days
 *  has data but no reading yet. */
export const liveTriggerStatus = (policy: IssuedPolicy, readings: ReadingHistory, today: string): TriggerStatus[] => {
  const window = liveTriggerWindow(policy, today);
  return assessPerils(policy, readings, today, policyTerm(policy)).map(({ cover, outcome }) => ({
    peril: cover.terms.peril,
    trigger_index: cover.terms.trigger_index,
    current_index_reading: outcome.observedValue,
    trigger_threshold: cover.terms.threshold,
    comparison: cover.terms.comparison,
    data_available: anyReadingIn(readings[cover.terms.peril] ?? [], window),
    ...(outcome.skipReason === null
      ? { coverage: coverageOnTheWire(outcome.coverage) }
      : { skipped_reason: outcome.skipReason }),
    data_source: cover.data,
  }));
};

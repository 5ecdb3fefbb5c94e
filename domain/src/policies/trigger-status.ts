import type { Comparison, TriggerStatus } from '@cropcover/contracts';
import { earlierDate } from '../insurance/calendar/calendar-date';
import type { CoverTerm } from '../insurance/calendar/cover-term';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import type { ReadingHistory } from '../insurance/index-data/reading-history';
import { readingsUsedOf } from '../insurance/index-data/readings-provenance';
import { decimalOfMillionths } from '../insurance/money/decimal';
import type { CoverOutcome } from '../insurance/term-sheet/evaluate-cover';
import { coverFigures } from './cover-figures';
import { assessPerils, policyTerm } from './peril-assessment';
import type { IssuedPolicy } from './policy';

/** The dates whose readings the live trigger status looks at: [term start, min(today, term end)], or
 *  undefined before the term has begun (nothing to read yet). */
export const liveTriggerWindow = (policy: IssuedPolicy, today: string): CoverTerm | undefined => {
  const end = earlierDate(today, policy.issued.term_end);
  return end < policy.issued.term_start ? undefined : { start: policy.issued.term_start, end };
};

const anyReadingIn = (readings: readonly IndexObservation[], window: CoverTerm | undefined): boolean =>
  window !== undefined && readings.some((reading) => reading.date >= window.start && reading.date <= window.end);

/** The threshold a cover shows while none of its phases was evaluated: its first phase's (a step table's
 *  paying edge), when its window is known. */
export const firstThreshold = (outcome: CoverOutcome): { threshold: number; comparison: Comparison } | undefined => {
  const payout = outcome.phases.find((phase) => phase.payout !== undefined)?.payout;
  return payout === undefined
    ? undefined
    : { threshold: decimalOfMillionths(payout.trigger), comparison: payout.direction === 'below' ? 'lte' : 'gte' };
};

/** Every cover as it stands today under the frozen sheet: `current_index_reading` is its governing
 *  phase's index so far with its `coverage` (null, with `skipped_reason`, when the data is not enough to
 *  evaluate any phase), `data_available` whether the term so far has any reading of the cover's index at
 *  all — a vegetation cover with NDVI only older than its last 30 days has data but no reading yet —, and
 *  `files` the files behind the values its index read, as an evaluation's provenance would name them. */
export const liveTriggerStatus = (policy: IssuedPolicy, readings: ReadingHistory, today: string): TriggerStatus[] => {
  const window = liveTriggerWindow(policy, today);
  return assessPerils(policy, readings, today, policyTerm(policy)).map(({ cover, outcome }) => {
    const figures = coverFigures(outcome, today);
    const coverReadings = readings[cover.terms.peril] ?? [];
    const shown = figures ?? firstThreshold(outcome);
    return {
      peril: cover.terms.peril,
      trigger_index: cover.terms.index,
      current_index_reading: figures?.observedValue ?? null,
      trigger_threshold: shown?.threshold ?? 0,
      comparison: shown?.comparison ?? 'lte',
      data_available: anyReadingIn(coverReadings, window),
      ...(figures === undefined ? { skipped_reason: outcome.skipReason ?? 'no_data' } : { coverage: figures.coverage }),
      data_source: cover.data,
      ...(figures === undefined || outcome.readings === undefined
        ? {}
        : { files: readingsUsedOf('', coverReadings, outcome.readings.from, outcome.readings.to).files }),
    };
  });
};

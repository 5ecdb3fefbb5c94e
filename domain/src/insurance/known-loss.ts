import type { TriggerTerms } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import type { CoverTerm } from './cover-term';
import type { ReadingHistory } from './reading-history';
import { evaluateTrigger } from './trigger-evaluation';

/** Refuses a cover that, evaluated as of today on the data its perils read, already breaches a trigger
 *  (SPEC §7 Known loss): no one buys cover on a loss already in the data. A breach exactly at the
 *  threshold counts: it pays nothing yet, but any deeper reading would. */
export const refuseKnownLoss = (
  triggers: readonly TriggerTerms[],
  history: ReadingHistory,
  term: CoverTerm,
  today: string,
): void => {
  for (const terms of triggers) {
    const outcome = evaluateTrigger(terms, history[terms.peril] ?? [], today, term);
    if (outcome.breached) {
      throw new DomainError(
        'rejected',
        'known_loss',
        `${terms.peril} is already breached on the data available: ${terms.trigger_index} ` +
          `${outcome.observedValue} ${terms.comparison === 'lte' ? '≤' : '≥'} threshold ${terms.threshold} ` +
          `over ${outcome.windowStart} to ${outcome.windowEnd}`,
      );
    }
  }
};

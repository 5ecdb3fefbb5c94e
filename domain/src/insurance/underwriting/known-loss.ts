import type { Peril, PolicyDataSources, TermSheet } from '@cropcover/contracts';
import { DomainError } from '../../domain-error';
import type { CoverTerm } from '../calendar/cover-term';
import { dayValuesIn } from '../index-data/day-values';
import type { ReadingHistory } from '../index-data/reading-history';
import { decimalOfMillionths } from '../money/decimal';
import { evaluateCover } from '../term-sheet/evaluate-cover';
import { productCover } from '../term-sheet/product';

/** Refuses a cover that, evaluated as of today on the data its perils read, already has a phase breached
 *  and settleable (SPEC §7 Known loss, TERM-SHEETS.md §2.3): no one buys cover on a loss already in the
 *  data. A breach exactly at the trigger counts: it pays nothing yet, but any deeper reading would. */
export const refuseKnownLoss = (
  sheet: TermSheet,
  perils: readonly Peril[],
  history: ReadingHistory,
  term: CoverTerm,
  today: string,
  dataSources?: PolicyDataSources,
): void => {
  for (const peril of perils) {
    const cover = productCover(sheet, peril);
    const readings = dayValuesIn(history[peril] ?? [], term.start, term.end);
    const source = dataSources?.[peril];
    const outcome = evaluateCover({ cover, amounts: sheet.amounts, term, readings, source }, today);
    const breached = outcome.phases.find((phase) => phase.breached);
    if (breached?.index !== undefined && breached.payout !== undefined && breached.window !== undefined) {
      const { numerator, denominator } = breached.index;
      throw new DomainError(
        'rejected',
        'known_loss',
        `${peril} is already breached on the data available: ${cover.index} ` +
          `${decimalOfMillionths(numerator, denominator)} ${breached.payout.direction === 'below' ? '≤' : '≥'} ` +
          `threshold ${decimalOfMillionths(breached.payout.trigger)} over ${breached.window.start} to ` +
          `${today < breached.window.end ? today : breached.window.end}` +
          (cover.phases.length > 1 ? ` (phase ${breached.phase.id})` : ''),
      );
    }
  }
};

import type { PolicyEvent } from '@cropcover/contracts';
import { conclusionOf, type IssuedPolicy, type PerilConclusion } from './policy';

const sameConclusion = (a: PerilConclusion | null, b: PerilConclusion): boolean =>
  a !== null &&
  a.digest !== null &&
  a.digest === b.digest &&
  a.readingsFrom === b.readingsFrom &&
  a.observedValue === b.observedValue &&
  a.breached === b.breached &&
  a.severity === b.severity &&
  a.amountDueMinor === b.amountDueMinor;

/** Whether a decided live evaluation only says again what the policy's last evaluation said: every peril
 *  it evaluated concludes the same from the same readings, every peril it skipped was skipped for the same
 *  reason, and it decided nothing else. Such an evaluation can be left unrecorded: it moves no money and
 *  changes no state a later decision reads. It is decided first, as of today, so anything the calendar
 *  alone changes (the window closing at term end, enough days for completeness or a 30-day mean) shows in
 *  what it concludes; a breach, payout or overpayment is never a repeat. */
export const repeatsLatestEvaluation = (policy: IssuedPolicy, decided: readonly PolicyEvent[]): boolean => {
  const coverOf = (peril: string) => policy.perils.find((cover) => cover.terms.peril === peril);
  return (
    decided.length > 0 &&
    decided.every((event) => {
      if (event.type === 'TriggerEvaluated') {
        const cover = coverOf(event.data.peril);
        return cover !== undefined && sameConclusion(cover.latestConclusion, conclusionOf(event.data));
      }
      if (event.type === 'TriggerEvaluationSkipped') {
        return event.data.perils.every((peril) => {
          const cover = coverOf(peril);
          return (
            cover !== undefined &&
            cover.latestConclusion === null &&
            cover.latestSkipReason !== null &&
            cover.latestSkipReason === event.data.reasons?.[peril]
          );
        });
      }
      return false;
    })
  );
};

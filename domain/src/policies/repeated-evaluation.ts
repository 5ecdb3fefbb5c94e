import type { PolicyEvent } from '@cropcover/contracts';
import { conclusionOf, sameConclusion } from './peril-conclusion';
import type { IssuedPolicy } from './policy';

/** Whether a decided daily evaluation concludes what the policy's last recorded one did (SPEC §7 "What
 *  the log records"): every peril it evaluated concludes the same (`sameConclusion`), every peril it
 *  skipped was skipped for the same reason, and it decided nothing else. Such an evaluation is left out
 *  of the log, whatever the observed values or readings behind it: it moves no money and changes no state
 *  a later decision reads. It is decided first, as of today, so anything the calendar alone changes (a
 *  window closing, enough days for completeness) shows in what it concludes; a breach, payout or
 *  overpayment is never a repeat. */
export const repeatsLatestConclusion = (policy: IssuedPolicy, decided: readonly PolicyEvent[]): boolean => {
  const coverOf = (peril: string) => policy.perils.find((cover) => cover.terms.peril === peril);
  return (
    decided.length > 0 &&
    decided.every((event) => {
      if (event.type === 'TriggerEvaluated') {
        const cover = coverOf(event.data.peril);
        return (
          cover !== undefined &&
          cover.latestConclusion !== null &&
          sameConclusion(cover.latestConclusion, conclusionOf(event.data, cover.terms))
        );
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

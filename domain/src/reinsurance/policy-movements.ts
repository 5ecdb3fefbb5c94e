import type { PolicyEvent } from '@cropcover/contracts';
import { utcDate } from '../insurance/calendar/calendar-date';
import type { IssuedPolicy, PerilCover } from '../policies/policy';
import type { RecordLoss, RecordPremium } from './record-movements';

// What the cession ledger follows of a policy's stream: the recorder hands each policy event, with the
// policy as it stands after it, to this, and records what comes out in the programme's reinsurance stream.

/** Where a policy event sits and what the policy is after it. */
export interface PolicyEventInPlace {
  readonly event: PolicyEvent;
  readonly eventId: string;
  /** The event's revision in `policy-<id>`. */
  readonly revision: number;
  readonly policy: IssuedPolicy;
  readonly programmeId: string;
  readonly now: Date;
}

export type LedgerMovement =
  | { readonly kind: 'premium'; readonly command: RecordPremium }
  | { readonly kind: 'loss'; readonly command: RecordLoss };

/** What the treaties follow of a cover: what it was paid, or less while an overpayment found it due less. */
export const lossLevelOf = (cover: PerilCover): number =>
  cover.overpaidDueMinor === null ? cover.paidMinor : Math.min(cover.paidMinor, cover.overpaidDueMinor);

/**
 * The ledger movements of one policy event: its premium at issue, and back to 0 at a lapse (premium not
 * paid); a cover's loss at each payout, overpayment, or evaluation that finds it due again what it was
 * paid. Other events move nothing (a repeated level records nothing either). A loss happened when it was
 * approved — the monitor approves a storm's payouts in one round — and belongs to the season its term ends
 * in.
 */
export const ledgerMovementsOf = ({
  event,
  eventId,
  revision,
  policy,
  programmeId,
  now,
}: PolicyEventInPlace): LedgerMovement[] => {
  const { issued } = policy;
  const movement = {
    programmeId,
    sourceEvent: eventId,
    policyId: issued.policy_id,
    policyRevision: revision,
    issuedOn: utcDate(new Date(issued.issued_at)),
    now,
  };
  const loss = (cover: PerilCover, occurredAt: string): LedgerMovement => ({
    kind: 'loss',
    command: {
      ...movement,
      peril: cover.terms.peril,
      zone: { source_id: cover.data.source_id, location: cover.data.location },
      lossMinor: lossLevelOf(cover),
      occurredAt,
      season: issued.term_end.slice(0, 4),
    },
  });
  const coverOf = (peril: string) => policy.perils.find((cover) => cover.terms.peril === peril);
  switch (event.type) {
    case 'PolicyIssued':
      return [{ kind: 'premium', command: { ...movement, premiumMinor: issued.premium_minor } }];
    case 'PolicyLapsed':
      return [{ kind: 'premium', command: { ...movement, premiumMinor: 0 } }];
    case 'PayoutApproved': {
      const cover = coverOf(event.data.peril);
      return cover === undefined ? [] : [loss(cover, event.data.approved_at)];
    }
    case 'PayoutOverpaymentRecorded': {
      const cover = coverOf(event.data.peril);
      return cover === undefined ? [] : [loss(cover, event.data.recorded_at)];
    }
    case 'TriggerEvaluated': {
      const cover = coverOf(event.data.peril);
      return cover === undefined || cover.paidMinor === 0 ? [] : [loss(cover, event.data.evaluated_at)];
    }
    default:
      return [];
  }
};

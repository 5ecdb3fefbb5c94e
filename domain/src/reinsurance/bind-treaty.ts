import type { LedgerPeriod, ReinsuranceEvent, TreatyBindRequest } from '@cropcover/contracts';
import { type Actor, canActForOrganization } from '../actor';
import { DomainError } from '../domain-error';
import { ledgerEntries } from './ledger-entries';
import { evolveReinsuranceLedger, periodKey, type ReinsuranceLedger } from './reinsurance-ledger';
import { treatyTermsOf } from './treaty-terms';

export interface BindTreaty {
  readonly actor: Actor;
  readonly treatyId: string;
  /** The programme the treaty is bound to, as its stream holds it. */
  readonly programme: { readonly programmeId: string; readonly organizationId: string; readonly currency: string };
  readonly request: TreatyBindRequest;
  readonly now: Date;
}

/** The calendar year of `now`: a treaty's period when the request names none. */
const yearOf = (now: Date): LedgerPeriod => {
  const year = now.getUTCFullYear();
  return { from: `${year}-01-01`, to: `${year}-12-31` };
};

const overlaps = (a: LedgerPeriod, b: LedgerPeriod) => a.from <= b.to && b.from <= a.to;

/**
 * Binds a treaty to a programme, after those bound before it (the order they apply in). A treaty covers the
 * policies issued in its period (risks attaching). Periods of one programme are equal or apart: a period
 * overlapping another one partly would let two sets of treaties cede the same policies, so it is refused
 * (422 `treaty_period_overlaps`). A treaty joining a period whose book the ledger already holds records its
 * share of that book at once, with the binding as the source.
 */
export const bindTreaty = (command: BindTreaty, ledger: ReinsuranceLedger): ReinsuranceEvent[] => {
  const { programme, request } = command;
  if (!canActForOrganization(command.actor, programme.organizationId)) {
    throw new DomainError('not_found', 'programme_not_found', 'no such programme');
  }
  if (ledger.treaties.some((treaty) => treaty.treatyId === command.treatyId)) {
    throw new DomainError('conflict', 'treaty_exists', `treaty ${command.treatyId} already exists`);
  }
  const period = request.period ?? yearOf(command.now);
  const clash = ledger.treaties.find(
    (treaty) =>
      overlaps(treaty.period, period) && (treaty.period.from !== period.from || treaty.period.to !== period.to),
  );
  if (clash !== undefined) {
    throw new DomainError(
      'rejected',
      'treaty_period_overlaps',
      `the period ${period.from}..${period.to} overlaps ${clash.period.from}..${clash.period.to} of treaty ${clash.treatyId} without being the same`,
    );
  }
  const bound: ReinsuranceEvent = {
    type: 'TreatyBound',
    data: {
      programme_id: programme.programmeId,
      treaty_id: command.treatyId,
      organization_id: programme.organizationId,
      reinsurer_organization_id: request.reinsurer_organization_id ?? null,
      currency: programme.currency,
      period,
      inurance_order: ledger.treaties.length + 1,
      terms: treatyTermsOf(request, programme.currency),
      bound_at: command.now.toISOString(),
    },
  };
  const after = evolveReinsuranceLedger(ledger, bound);
  const book = after.periods.get(periodKey(period))!;
  return [
    bound,
    ...ledgerEntries(after, book, {
      programmeId: programme.programmeId,
      sourceEvent: `treaty:${command.treatyId}`,
      policyId: null,
      zone: null,
      peril: null,
      now: command.now,
    }),
  ];
};

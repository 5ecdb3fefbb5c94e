import type { ProgrammeEvent } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import type { PolicyExposure } from './accumulation-zone';
import { capacityBreaches, capacityExceededEntry } from './binding-check';
import { defaultProgrammeCreated, defaultProgrammeId } from './default-programme';
import { evolveProgramme, type OpenProgramme, type Programme } from './programme';
import { visibleOpenProgramme } from './programme-access';

export interface ReserveExposure {
  readonly actor: Actor;
  readonly programmeId: string;
  /** The policy being issued, as its PolicyIssued will freeze it. */
  readonly exposure: PolicyExposure;
  readonly now: Date;
}

/** The programme the reservation goes to: the one named, or the organization's default for the policy's
 *  currency, created by this reservation when it is the first. */
const programmeFor = (
  command: ReserveExposure,
  state: Programme,
): { programme: OpenProgramme; created: ProgrammeEvent[] } => {
  const { organizationId, currency } = command.exposure;
  if (state.status === 'not_created' && command.programmeId === defaultProgrammeId(organizationId, currency)) {
    const created = defaultProgrammeCreated(organizationId, currency, command.now);
    return { programme: visibleOpenProgramme(evolveProgramme(state, created), command.actor), created: [created] };
  }
  return { programme: visibleOpenProgramme(state, command.actor), created: [] };
};

/**
 * The binding check and the reservation, in one decision on the programme's stream: appended with the
 * expected revision beside the policy's PolicyIssued, so concurrent issues against the same room are
 * decided one after the other and exactly the ones that fit are written (SPEC §7). A policy already
 * reserved is not reserved again. Refused with 422 `capacity_exceeded`, one `errors[]` entry per limit
 * passed, and nothing decided.
 */
export const reserveExposure = (command: ReserveExposure, state: Programme): ProgrammeEvent[] => {
  const { programme, created } = programmeFor(command, state);
  const { exposure } = command;
  if (programme.currency !== exposure.currency) {
    throw new DomainError(
      'rejected',
      'currency_mismatch',
      `programme ${programme.programmeId} is in ${programme.currency}; the policy is in ${exposure.currency}`,
    );
  }
  if (programme.reservations.has(exposure.policyId)) return created;
  const breaches = capacityBreaches(programme, exposure);
  if (breaches.length > 0) {
    throw new DomainError(
      'rejected',
      'capacity_exceeded',
      `the policy's sum insured would pass ${breaches.length === 1 ? 'a capacity limit' : `${breaches.length} capacity limits`} of programme ${programme.programmeId}`,
      breaches.map((breach) => capacityExceededEntry(breach, programme.currency)),
    );
  }
  return [
    ...created,
    {
      type: 'ExposureReserved',
      data: {
        programme_id: programme.programmeId,
        policy_id: exposure.policyId,
        sum_insured_minor: exposure.sumInsuredMinor,
        premium_minor: exposure.premiumMinor,
        zones: exposure.zones.map((zone) => ({ ...zone, perils: [...zone.perils] })),
        reserved_at: command.now.toISOString(),
      },
    },
  ];
};

import type { CapacityBelowCommittedEntry, ProgrammeEvent, ProgrammeUpdateRequest } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import { toMajorUnits } from '../insurance/money/minor-units';
import { zoneOfKey } from './accumulation-zone';
import { type CapacityBreach, limitName, limitPlace } from './binding-check';
import { programmePatchMinor } from './capacity-amounts';
import { type CapacityLimits, patchedLimits, zoneCapacity, zonePerilCapacity } from './capacity-rules';
import { defaultProgrammeCreated, defaultProgrammeCurrency } from './default-programme';
import { type Commitments, evolveProgramme, type OpenProgramme, type Programme } from './programme';
import { visibleOpenProgramme } from './programme-access';

export interface UpdateProgramme {
  readonly actor: Actor;
  /** The programme the request names: when it is the actor's organization's default for a currency and
   *  nothing has been written to it yet, the change creates it. */
  readonly programmeId?: string;
  readonly request: ProgrammeUpdateRequest;
  readonly now: Date;
}

type Lowered = Omit<CapacityBreach, 'requestedMinor'>;

/** Every limit set below what is committed under it: the aggregate, each committed zone (its override or
 *  the default it falls back to) and each committed (zone, peril) with a rule. */
const limitsBelowCommitted = (limits: CapacityLimits, committed: Commitments): Lowered[] => {
  const below = (capacityMinor: number | null, committedMinor: number) =>
    capacityMinor !== null && committedMinor > capacityMinor;
  const zones = [...committed.zones.entries()].flatMap(([key, committedMinor]): Lowered[] => {
    const zone = zoneOfKey(key);
    const capacityMinor = zoneCapacity(limits, zone);
    return below(capacityMinor, committedMinor)
      ? [{ limit: 'zone', zone, capacityMinor: capacityMinor!, committedMinor }]
      : [];
  });
  const zonePerils = [...committed.zonePerils.entries()].flatMap(([key, committedMinor]): Lowered[] => {
    const { peril, ...zone } = zoneOfKey(key);
    const capacityMinor = zonePerilCapacity(limits, zone, peril!);
    return below(capacityMinor, committedMinor)
      ? [{ limit: 'zone_peril', zone, peril: peril!, capacityMinor: capacityMinor!, committedMinor }]
      : [];
  });
  const aggregate: Lowered[] = below(limits.aggregateLimitMinor, committed.aggregateMinor)
    ? [
        {
          limit: 'programme_aggregate',
          capacityMinor: limits.aggregateLimitMinor!,
          committedMinor: committed.aggregateMinor,
        },
      ]
    : [];
  return [...zones, ...zonePerils, ...aggregate];
};

const belowCommittedEntry = (lowered: Lowered, currency: string): CapacityBelowCommittedEntry => {
  const money = (minor: number) => toMajorUnits(minor, currency);
  return {
    path: lowered.limit === 'programme_aggregate' ? 'aggregate_limit' : 'capacity',
    message: `${limitName(lowered)}: capacity ${money(lowered.capacityMinor)} is below the ${money(lowered.committedMinor)} ${currency} already committed`,
    limit: lowered.limit,
    ...limitPlace(lowered),
    capacity: money(lowered.capacityMinor),
    committed: money(lowered.committedMinor),
  };
};

/** The programme changed: the one written, or the organization's default programme of a currency, which
 *  exists (without limits) before anything is written to it (SPEC §7) and is created by its first change. */
const programmeToUpdate = (
  command: UpdateProgramme,
  state: Programme,
): { programme: OpenProgramme; created: ProgrammeEvent[] } => {
  const { organizationId } = command.actor;
  const currency =
    state.status === 'not_created' && command.programmeId !== undefined && organizationId !== null
      ? defaultProgrammeCurrency(organizationId, command.programmeId)
      : undefined;
  if (currency === undefined || organizationId === null) {
    return { programme: visibleOpenProgramme(state, command.actor), created: [] };
  }
  const created = defaultProgrammeCreated(organizationId, currency, command.now);
  return { programme: visibleOpenProgramme(evolveProgramme(state, created), command.actor), created: [created] };
};

/** PATCH: sets or removes limits. A limit may not be set below what is already committed under it — the
 *  policies are written (Ensuro: the exposure limit cannot go below the active exposure) — 422
 *  `capacity_below_committed`, one entry per such limit; lowering to exactly what is committed is allowed. */
export const updateProgramme = (command: UpdateProgramme, state: Programme): ProgrammeEvent[] => {
  const { programme, created } = programmeToUpdate(command, state);
  const patch = programmePatchMinor(programme.programmeId, command.request, programme.currency, command.now);
  const lowered = limitsBelowCommitted(patchedLimits(programme.limits, patch), programme.committed);
  if (lowered.length > 0) {
    throw new DomainError(
      'rejected',
      'capacity_below_committed',
      `${lowered.length === 1 ? 'a limit' : `${lowered.length} limits`} would be below what programme ${programme.programmeId} has already committed`,
      lowered.map((limit) => belowCommittedEntry(limit, programme.currency)),
    );
  }
  return [...created, { type: 'ProgrammeUpdated', data: patch }];
};

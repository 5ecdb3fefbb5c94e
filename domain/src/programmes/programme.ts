import type { ExposureZone, ProgrammeEvent } from '@cropcover/contracts';
import { Map as PersistentMap } from 'immutable';
import { type Aggregate, streamName } from '../aggregate';
import { zoneKey, zonePerilKey } from './accumulation-zone';
import { type CapacityLimits, limitsOf, patchedLimits } from './capacity-rules';

/** A policy's sum insured committed against the programme, until its lapse or close releases it. */
export interface Reservation {
  readonly sumInsuredMinor: number;
  readonly premiumMinor: number;
  readonly zones: readonly ExposureZone[];
}

/** What is committed: the sum insured of every policy in force, once in the aggregate, once per zone its
 *  covers read and once per (zone, peril). Counted for every zone and pair, limited or not, so a limit set
 *  later is checked against what is already written. */
export interface Commitments {
  readonly aggregateMinor: number;
  /** zoneKey → committed. */
  readonly zones: PersistentMap<string, number>;
  /** zonePerilKey → committed. */
  readonly zonePerils: PersistentMap<string, number>;
}

export interface OpenProgramme {
  readonly status: 'open';
  readonly programmeId: string;
  readonly organizationId: string;
  readonly name: string;
  readonly currency: string;
  readonly isDefault: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly limits: CapacityLimits;
  readonly committed: Commitments;
  /** policy id → its reservation, while in force. Persistent maps: a programme of 100,000 policies folds
   *  in linear time, and a kept state is never changed by folding further. */
  readonly reservations: PersistentMap<string, Reservation>;
}

export type Programme = { readonly status: 'not_created' } | OpenProgramme;

export const initialProgramme: Programme = { status: 'not_created' };

const add = (map: PersistentMap<string, number>, key: string, amount: number) => {
  const total = (map.get(key) ?? 0) + amount;
  return total === 0 ? map.remove(key) : map.set(key, total);
};

/** The commitments moved by `sign` × a reservation: +1 when reserved, −1 when released. */
const moveCommitments = (committed: Commitments, reservation: Reservation, sign: 1 | -1): Commitments => {
  const amount = sign * reservation.sumInsuredMinor;
  let { zones, zonePerils } = committed;
  for (const zone of reservation.zones) {
    zones = add(zones, zoneKey(zone), amount);
    for (const { peril } of zone.perils) zonePerils = add(zonePerils, zonePerilKey(zone, peril), amount);
  }
  return { aggregateMinor: committed.aggregateMinor + amount, zones, zonePerils };
};

const NOTHING_COMMITTED: Commitments = { aggregateMinor: 0, zones: PersistentMap(), zonePerils: PersistentMap() };

export const evolveProgramme = (state: Programme, event: ProgrammeEvent): Programme => {
  if (event.type === 'ProgrammeCreated') {
    const { data } = event;
    return {
      status: 'open',
      programmeId: data.programme_id,
      organizationId: data.organization_id,
      name: data.name,
      currency: data.currency,
      isDefault: data.is_default,
      createdAt: data.created_at,
      updatedAt: data.created_at,
      limits: limitsOf(data.aggregate_limit_minor, data.capacity),
      committed: NOTHING_COMMITTED,
      reservations: PersistentMap(),
    };
  }
  if (state.status === 'not_created') return state;
  switch (event.type) {
    case 'ProgrammeUpdated':
      return { ...state, limits: patchedLimits(state.limits, event.data), updatedAt: event.data.updated_at };
    case 'ExposureReserved': {
      const reservation: Reservation = {
        sumInsuredMinor: event.data.sum_insured_minor,
        premiumMinor: event.data.premium_minor,
        zones: event.data.zones,
      };
      return {
        ...state,
        committed: moveCommitments(state.committed, reservation, 1),
        reservations: state.reservations.set(event.data.policy_id, reservation),
      };
    }
    case 'ExposureReleased': {
      const reservation = state.reservations.get(event.data.policy_id);
      if (reservation === undefined) return state;
      return {
        ...state,
        committed: moveCommitments(state.committed, reservation, -1),
        reservations: state.reservations.remove(event.data.policy_id),
      };
    }
  }
};

/** `programme-<programme_id>`: a programme's limits and the exposure reserved against them. */
export const programmeStream = streamName('programme');

export const programmeAggregate: Aggregate<Programme, ProgrammeEvent> = {
  initial: initialProgramme,
  evolve: evolveProgramme,
};

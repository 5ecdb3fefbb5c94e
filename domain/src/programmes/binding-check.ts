import type { CapacityExceededEntry, CapacityLimitKind, Peril } from '@cropcover/contracts';
import { toMajorUnits } from '../insurance/money/minor-units';
import { type PolicyExposure, type Zone, zoneKey, zonePerilKey } from './accumulation-zone';
import { zoneCapacity, zonePerilCapacity } from './capacity-rules';
import type { OpenProgramme } from './programme';

// The binding check (SPEC §7): a policy may be written only while, for every limit it touches,
// committed + its sum insured ≤ capacity — equality allowed, as GIF's `capacity < collateralAmount`
// refuses only what passes. Counted once per zone its covers read (not once per peril: payouts across
// perils are capped at the sum insured), once per (zone, peril), and once in the aggregate.

/** A limit the policy would pass, in minor units. */
export interface CapacityBreach {
  readonly limit: CapacityLimitKind;
  readonly zone?: Zone;
  readonly peril?: Peril;
  readonly capacityMinor: number;
  readonly committedMinor: number;
  readonly requestedMinor: number;
}

const breachOf = (
  limit: Omit<CapacityBreach, 'capacityMinor' | 'committedMinor' | 'requestedMinor'>,
  capacityMinor: number | null,
  committedMinor: number,
  requestedMinor: number,
): CapacityBreach[] =>
  capacityMinor !== null && committedMinor + requestedMinor > capacityMinor
    ? [{ ...limit, capacityMinor, committedMinor, requestedMinor }]
    : [];

/** Every limit the exposure would pass, zones first (in the policy's order), then (zone, peril) pairs,
 *  then the aggregate; none when it fits. */
export const capacityBreaches = (programme: OpenProgramme, exposure: PolicyExposure): CapacityBreach[] => {
  const { limits, committed } = programme;
  const requested = exposure.sumInsuredMinor;
  const zones = exposure.zones.flatMap((zone) =>
    breachOf(
      { limit: 'zone', zone: { source_id: zone.source_id, location: zone.location } },
      zoneCapacity(limits, zone),
      committed.zones.get(zoneKey(zone)) ?? 0,
      requested,
    ),
  );
  const zonePerils = exposure.zones.flatMap((zone) =>
    zone.perils.flatMap(({ peril }) =>
      breachOf(
        { limit: 'zone_peril', zone: { source_id: zone.source_id, location: zone.location }, peril },
        zonePerilCapacity(limits, zone, peril),
        committed.zonePerils.get(zonePerilKey(zone, peril)) ?? 0,
        requested,
      ),
    ),
  );
  const aggregate = breachOf(
    { limit: 'programme_aggregate' },
    limits.aggregateLimitMinor,
    committed.aggregateMinor,
    requested,
  );
  return [...zones, ...zonePerils, ...aggregate];
};

export const limitName = ({ limit, zone, peril }: Pick<CapacityBreach, 'limit' | 'zone' | 'peril'>): string =>
  limit === 'programme_aggregate'
    ? 'the programme aggregate'
    : `${limit === 'zone' ? 'zone' : `${peril} in zone`} ${zone!.source_id} ${zone!.location}`;

/** Where a limit is, as an `errors[]` entry names it: its zone and peril, absent for the aggregate. */
export const limitPlace = ({ zone, peril }: Pick<CapacityBreach, 'zone' | 'peril'>) => ({
  ...(zone === undefined ? {} : { source_id: zone.source_id, location: zone.location }),
  ...(peril === undefined ? {} : { peril }),
});

/** A breach as its `errors[]` entry: the numbers in major units of the programme's currency. */
export const capacityExceededEntry = (breach: CapacityBreach, currency: string): CapacityExceededEntry => {
  const money = (minor: number) => toMajorUnits(minor, currency);
  const available = Math.max(0, breach.capacityMinor - breach.committedMinor);
  return {
    path: 'sum_insured',
    message: `${limitName(breach)}: capacity ${money(breach.capacityMinor)}, committed ${money(breach.committedMinor)}, requested ${money(breach.requestedMinor)}, available ${money(available)} ${currency}`,
    limit: breach.limit,
    ...limitPlace(breach),
    capacity: money(breach.capacityMinor),
    committed: money(breach.committedMinor),
    requested: money(breach.requestedMinor),
    available: money(available),
  };
};

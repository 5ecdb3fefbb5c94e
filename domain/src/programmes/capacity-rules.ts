import type { CapacityRulesMinor, Peril, ProgrammeUpdated } from '@cropcover/contracts';
import { Map as PersistentMap } from 'immutable';
import { type Zone, zoneKey, zonePerilKey } from './accumulation-zone';

/** A programme's limits in minor units; null is no limit. A zone without an override takes the default;
 *  a (zone, peril) without a rule has none of its own. */
export interface CapacityLimits {
  readonly aggregateLimitMinor: number | null;
  readonly zoneDefaultMinor: number | null;
  /** zoneKey → capacity. */
  readonly zones: PersistentMap<string, number>;
  /** zonePerilKey → capacity. */
  readonly zonePerils: PersistentMap<string, number>;
}

export const limitsOf = (aggregateLimitMinor: number | null, rules: CapacityRulesMinor): CapacityLimits => ({
  aggregateLimitMinor,
  zoneDefaultMinor: rules.zone_default_minor,
  zones: PersistentMap(rules.zones.map((rule) => [zoneKey(rule), rule.capacity_minor] as const)),
  zonePerils: PersistentMap(
    rules.zone_perils.map((rule) => [zonePerilKey(rule, rule.peril), rule.capacity_minor] as const),
  ),
});

/** The capacity of a zone: its override, else the default; null when unlimited. */
export const zoneCapacity = (limits: CapacityLimits, zone: Zone): number | null =>
  limits.zones.get(zoneKey(zone)) ?? limits.zoneDefaultMinor;

export const zonePerilCapacity = (limits: CapacityLimits, zone: Zone, peril: Peril): number | null =>
  limits.zonePerils.get(zonePerilKey(zone, peril)) ?? null;

/** Whether any limit is set: a programme without one can refuse nothing. */
export const hasAnyLimit = (limits: CapacityLimits): boolean =>
  limits.aggregateLimitMinor !== null ||
  limits.zoneDefaultMinor !== null ||
  limits.zones.size > 0 ||
  limits.zonePerils.size > 0;

const setOrRemove = (map: PersistentMap<string, number>, key: string, capacity: number | null) =>
  capacity === null ? map.remove(key) : map.set(key, capacity);

/** The limits after a PATCH: what it names is set, null removes, the rest stays. */
export const patchedLimits = (limits: CapacityLimits, patch: ProgrammeUpdated): CapacityLimits => ({
  aggregateLimitMinor:
    patch.aggregate_limit_minor === undefined ? limits.aggregateLimitMinor : patch.aggregate_limit_minor,
  zoneDefaultMinor:
    patch.capacity?.zone_default_minor === undefined ? limits.zoneDefaultMinor : patch.capacity.zone_default_minor,
  zones: (patch.capacity?.zones ?? []).reduce(
    (zones, rule) => setOrRemove(zones, zoneKey(rule), rule.capacity_minor),
    limits.zones,
  ),
  zonePerils: (patch.capacity?.zone_perils ?? []).reduce(
    (zonePerils, rule) => setOrRemove(zonePerils, zonePerilKey(rule, rule.peril), rule.capacity_minor),
    limits.zonePerils,
  ),
});

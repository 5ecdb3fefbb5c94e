import type { Programme as ProgrammeShown } from '@cropcover/contracts';
import { toMajorUnits } from '../insurance/money/minor-units';
import { zoneOfKey } from './accumulation-zone';
import type { OpenProgramme } from './programme';

/** A programme as the API shows it after a write: its limits in major units, rules in key order. */
export const programmeView = (programme: OpenProgramme): ProgrammeShown => {
  const money = (minor: number) => toMajorUnits(minor, programme.currency);
  const { limits } = programme;
  return {
    programme_id: programme.programmeId,
    organization_id: programme.organizationId,
    name: programme.name,
    currency: programme.currency,
    is_default: programme.isDefault,
    aggregate_limit: limits.aggregateLimitMinor === null ? null : money(limits.aggregateLimitMinor),
    capacity: {
      zone_default: limits.zoneDefaultMinor === null ? null : money(limits.zoneDefaultMinor),
      zones: [...limits.zones.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, capacityMinor]) => {
          const { source_id, location } = zoneOfKey(key);
          return { source_id, location, capacity: money(capacityMinor) };
        }),
      zone_perils: [...limits.zonePerils.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, capacityMinor]) => {
          const { source_id, location, peril } = zoneOfKey(key);
          return { source_id, location, peril: peril!, capacity: money(capacityMinor) };
        }),
    },
    created_at: programme.createdAt,
    updated_at: programme.updatedAt,
  };
};

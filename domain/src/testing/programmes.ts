import type { CapacityRulesMinor, ExposureZone, Peril, ProgrammeEvent } from '@cropcover/contracts';
import type { PolicyExposure } from '../programmes/accumulation-zone';

// Programmes and exposures as the tests of capacity, exposure and reinsurance build them.

export const CHIRPS_CELL_A = { source_id: 'chirps', location: '-1.30,36.80' } as const;
export const CHIRPS_CELL_B = { source_id: 'chirps', location: '-1.35,36.80' } as const;
export const STATION_B = { source_id: 'kmd-stations', location: 'KMD-0042' } as const;

export const programmeCreated = ({
  programmeId = 'prog-1',
  organizationId = 'org-1',
  currency = 'KES',
  aggregateLimitMinor = null,
  capacity = {},
}: {
  programmeId?: string;
  organizationId?: string;
  currency?: string;
  aggregateLimitMinor?: number | null;
  capacity?: Partial<CapacityRulesMinor>;
} = {}): ProgrammeEvent => ({
  type: 'ProgrammeCreated',
  data: {
    programme_id: programmeId,
    organization_id: organizationId,
    name: 'Long rains 2026',
    currency,
    is_default: false,
    aggregate_limit_minor: aggregateLimitMinor,
    capacity: { zone_default_minor: null, zones: [], zone_perils: [], ...capacity },
    created_at: '2026-01-05T08:00:00.000Z',
  },
});

/** A zone read by the given perils, each priced at `premiumMinor`. */
export const zoneReadBy = (
  zone: { source_id: string; location: string },
  perils: readonly Peril[],
  premiumMinor = 1_000,
): ExposureZone => ({ ...zone, perils: perils.map((peril) => ({ peril, premium_minor: premiumMinor })) });

export const policyExposure = (
  policyId: string,
  sumInsuredMinor: number,
  zones: readonly ExposureZone[] = [zoneReadBy(CHIRPS_CELL_A, ['drought'])],
  { organizationId = 'org-1', currency = 'KES' }: { organizationId?: string; currency?: string } = {},
): PolicyExposure => ({
  policyId,
  organizationId,
  currency,
  sumInsuredMinor,
  premiumMinor: zones.reduce(
    (sum, zone) => sum + zone.perils.reduce((total, peril) => total + peril.premium_minor, 0),
    0,
  ),
  zones,
});

/** The ExposureReserved a reservation of `exposure` in programme `prog-1` records. */
export const exposureReserved = (exposure: PolicyExposure, programmeId = 'prog-1'): ProgrammeEvent => ({
  type: 'ExposureReserved',
  data: {
    programme_id: programmeId,
    policy_id: exposure.policyId,
    sum_insured_minor: exposure.sumInsuredMinor,
    premium_minor: exposure.premiumMinor,
    zones: [...exposure.zones],
    reserved_at: '2026-02-01T08:00:00.000Z',
  },
});

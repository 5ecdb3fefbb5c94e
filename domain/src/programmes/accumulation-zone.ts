import type { ExposureZone, Peril } from '@cropcover/contracts';
import type { IssuedPolicy } from '../policies/policy';

// An accumulation zone is the (source, location) a cover reads, as frozen in PolicyIssued (SPEC §7): every
// policy reading one grid cell or station loses together. Zones and (zone, peril) pairs are keyed as
// JSON arrays, which no source id or location can make ambiguous.

export interface Zone {
  readonly source_id: string;
  readonly location: string;
}

export const zoneKey = ({ source_id, location }: Zone): string => JSON.stringify([source_id, location]);

export const zonePerilKey = ({ source_id, location }: Zone, peril: Peril): string =>
  JSON.stringify([source_id, location, peril]);

/** The zone (and peril) a key names. */
export const zoneOfKey = (key: string): Zone & { readonly peril?: Peril } => {
  const [source_id, location, peril] = JSON.parse(key) as [string, string, Peril | undefined];
  return peril === undefined ? { source_id, location } : { source_id, location, peril };
};

/** What a policy commits against a programme's capacity: its sum insured, once per zone its covers read. */
export interface PolicyExposure {
  readonly policyId: string;
  readonly organizationId: string;
  readonly currency: string;
  readonly sumInsuredMinor: number;
  readonly premiumMinor: number;
  /** Every zone any cover reads, once, with the perils reading it. */
  readonly zones: readonly ExposureZone[];
}

/** The exposure of an issued policy: the zones of its covers' frozen data, each once, in peril order,
 *  with the premium each peril was priced at. */
export const exposureOfPolicy = (policy: IssuedPolicy): PolicyExposure => {
  const { issued } = policy;
  const premiumOf = new Map(issued.pricing.map((price) => [price.peril, price.premium_minor]));
  const zones = new Map<string, { source_id: string; location: string; perils: ExposureZone['perils'][number][] }>();
  for (const cover of policy.perils) {
    const key = zoneKey(cover.data);
    const zone = zones.get(key) ?? { source_id: cover.data.source_id, location: cover.data.location, perils: [] };
    zone.perils.push({ peril: cover.terms.peril, premium_minor: premiumOf.get(cover.terms.peril) ?? 0 });
    zones.set(key, zone);
  }
  return {
    policyId: issued.policy_id,
    organizationId: issued.organization_id,
    currency: issued.currency,
    sumInsuredMinor: issued.sum_insured_minor,
    premiumMinor: issued.premium_minor,
    zones: [...zones.values()],
  };
};

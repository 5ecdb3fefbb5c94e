import {
  amountFitsCurrency,
  type CapacityPatch,
  type CapacityRules,
  type CapacityRulesMinor,
  type ProgrammeUpdated,
  type ProgrammeUpdateRequest,
  programmeUpdateAmounts,
} from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import { toMinorUnits } from '../insurance/money/minor-units';

// Capacity rules cross the wire in major units and live in the log in minor units: the conversions, once.

const orNull = (amount: number | null, currency: string) => (amount === null ? null : toMinorUnits(amount, currency));

export const capacityRulesMinor = (rules: CapacityRules | undefined, currency: string): CapacityRulesMinor => ({
  zone_default_minor: rules?.zone_default === undefined ? null : toMinorUnits(rules.zone_default, currency),
  zones: (rules?.zones ?? []).map(({ source_id, location, capacity }) => ({
    source_id,
    location,
    capacity_minor: toMinorUnits(capacity, currency),
  })),
  zone_perils: (rules?.zone_perils ?? []).map(({ source_id, location, peril, capacity }) => ({
    source_id,
    location,
    peril,
    capacity_minor: toMinorUnits(capacity, currency),
  })),
});

const capacityPatchMinor = (patch: CapacityPatch, currency: string): NonNullable<ProgrammeUpdated['capacity']> => ({
  ...(patch.zone_default === undefined ? {} : { zone_default_minor: orNull(patch.zone_default, currency) }),
  ...(patch.zones === undefined
    ? {}
    : {
        zones: patch.zones.map(({ source_id, location, capacity }) => ({
          source_id,
          location,
          capacity_minor: orNull(capacity, currency),
        })),
      }),
  ...(patch.zone_perils === undefined
    ? {}
    : {
        zone_perils: patch.zone_perils.map(({ source_id, location, peril, capacity }) => ({
          source_id,
          location,
          peril,
          capacity_minor: orNull(capacity, currency),
        })),
      }),
});

/** A PATCH in minor units of the programme's currency. Its currency is known only here, so an amount with
 *  more decimals than it allows is refused here, one `errors[]` entry per amount. */
export const programmePatchMinor = (
  programmeId: string,
  request: ProgrammeUpdateRequest,
  currency: string,
  now: Date,
): ProgrammeUpdated => {
  const tooPrecise = programmeUpdateAmounts(request).filter(({ amount }) => !amountFitsCurrency(amount, currency));
  if (tooPrecise.length > 0) {
    throw new DomainError(
      'rejected',
      'invalid_amount',
      `amounts with more decimals than ${currency} allows`,
      tooPrecise.map(({ path }) => ({ path: path.join('.'), message: `has more decimals than ${currency} allows` })),
    );
  }
  return {
    programme_id: programmeId,
    ...(request.aggregate_limit === undefined
      ? {}
      : { aggregate_limit_minor: orNull(request.aggregate_limit, currency) }),
    ...(request.capacity === undefined ? {} : { capacity: capacityPatchMinor(request.capacity, currency) }),
    updated_at: now.toISOString(),
  };
};

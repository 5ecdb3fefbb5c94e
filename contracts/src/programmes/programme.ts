import { DateTime, TrimmedText } from '../common';
import { CurrencyCode } from '../currency';
import { PageNumber, PageSize } from '../insurance/pagination';
import { Peril } from '../insurance/peril';
import { z } from '../zod';
import { addCurrencyDecimalIssues, LimitAmount } from './limit-amount';

// SPEC §7 "Programmes, capacity, portfolio and reinsurance": a programme groups an organization's
// policies of one currency, with capacity per accumulation zone — a (source, location) as frozen per peril
// in PolicyIssued — per (zone, peril) and in aggregate. Amounts are major units on the wire.

const SourceIdField = z.string().min(1).max(200);
const LocationField = z.string().min(1).max(200);

/** Zone overrides a programme may hold: a grid of 20,000 cells or stations, with room to spare. */
export const MAX_CAPACITY_RULES = 50_000;

export const ZoneCapacity = z
  .strictObject({ source_id: SourceIdField, location: LocationField, capacity: LimitAmount })
  .openapi('ZoneCapacity');
export type ZoneCapacity = z.infer<typeof ZoneCapacity>;

export const ZonePerilCapacity = z
  .strictObject({ source_id: SourceIdField, location: LocationField, peril: Peril, capacity: LimitAmount })
  .openapi('ZonePerilCapacity');
export type ZonePerilCapacity = z.infer<typeof ZonePerilCapacity>;

type ZoneEntry = { readonly source_id: string; readonly location: string; readonly peril?: string };

/** A rule named twice in one list is ambiguous: which capacity holds? Refused on the second entry. */
const refuseRepeatedZones =
  (list: 'zones' | 'zone_perils') =>
  (entries: readonly ZoneEntry[] | undefined, context: z.RefinementCtx): void => {
    const seen = new Set<string>();
    entries?.forEach((entry, at) => {
      const key = JSON.stringify([entry.source_id, entry.location, entry.peril ?? null]);
      if (seen.has(key)) {
        context.addIssue({
          code: 'custom',
          path: [at],
          message: `repeats a ${list === 'zones' ? 'zone' : '(zone, peril)'} named before in ${list}`,
        });
      }
      seen.add(key);
    });
  };

const rulesList = <Entry extends z.ZodType<ZoneEntry>>(entry: Entry, list: 'zones' | 'zone_perils') =>
  z
    .array(entry)
    .max(MAX_CAPACITY_RULES, { message: `must hold at most ${MAX_CAPACITY_RULES} entries` })
    .superRefine(refuseRepeatedZones(list));

/** Capacity rules as a programme is created with them and shows them: a default per zone, overrides per
 *  zone, optional caps per (zone, peril). A zone with no override and no default is unlimited. */
export const CapacityRules = z
  .strictObject({
    zone_default: LimitAmount.optional(),
    zones: rulesList(ZoneCapacity, 'zones').optional(),
    zone_perils: rulesList(ZonePerilCapacity, 'zone_perils').optional(),
  })
  .openapi('CapacityRules');
export type CapacityRules = z.infer<typeof CapacityRules>;

const capacityAmounts = (capacity: {
  readonly zone_default?: number | null | undefined;
  readonly zones?: readonly { readonly capacity: number | null }[] | undefined;
  readonly zone_perils?: readonly { readonly capacity: number | null }[] | undefined;
}) => [
  ...(typeof capacity.zone_default === 'number'
    ? [{ path: ['capacity', 'zone_default'], amount: capacity.zone_default }]
    : []),
  ...(capacity.zones ?? []).flatMap((zone, at) =>
    zone.capacity === null ? [] : [{ path: ['capacity', 'zones', at, 'capacity'], amount: zone.capacity }],
  ),
  ...(capacity.zone_perils ?? []).flatMap((zone, at) =>
    zone.capacity === null ? [] : [{ path: ['capacity', 'zone_perils', at, 'capacity'], amount: zone.capacity }],
  ),
];

export const ProgrammeCreateRequest = z
  .strictObject({
    name: TrimmedText(200),
    currency: CurrencyCode,
    aggregate_limit: LimitAmount.optional(),
    capacity: CapacityRules.optional(),
  })
  .superRefine((request, context) =>
    addCurrencyDecimalIssues(
      [
        ...(request.aggregate_limit === undefined
          ? []
          : [{ path: ['aggregate_limit'], amount: request.aggregate_limit }]),
        ...(request.capacity === undefined ? [] : capacityAmounts(request.capacity)),
      ],
      request.currency,
      context,
    ),
  )
  .openapi('ProgrammeCreateRequest');
export type ProgrammeCreateRequest = z.infer<typeof ProgrammeCreateRequest>;

/** PATCH: every rule named is set; `null` removes it (the zone falls back to the default, the default to
 *  no limit). Rules not named stay as they are, so one zone changes without sending 20,000. */
export const CapacityPatch = z
  .strictObject({
    zone_default: LimitAmount.nullable().optional(),
    zones: rulesList(ZoneCapacity.extend({ capacity: LimitAmount.nullable() }), 'zones').optional(),
    zone_perils: rulesList(ZonePerilCapacity.extend({ capacity: LimitAmount.nullable() }), 'zone_perils').optional(),
  })
  .openapi('CapacityPatch');
export type CapacityPatch = z.infer<typeof CapacityPatch>;

/** The currency is the programme's, known only once it is loaded: the decimals of a PATCH's amounts are
 *  checked there (422 `invalid_amount`). */
export const ProgrammeUpdateRequest = z
  .strictObject({
    aggregate_limit: LimitAmount.nullable().optional(),
    capacity: CapacityPatch.optional(),
  })
  .refine((request) => request.aggregate_limit !== undefined || request.capacity !== undefined, {
    message: 'must change aggregate_limit or capacity',
  })
  .openapi('ProgrammeUpdateRequest');
export type ProgrammeUpdateRequest = z.infer<typeof ProgrammeUpdateRequest>;

/** The amounts of a PATCH with their paths, for the decimals check against the programme's currency. */
export const programmeUpdateAmounts = (request: ProgrammeUpdateRequest) => [
  ...(typeof request.aggregate_limit === 'number'
    ? [{ path: ['aggregate_limit'], amount: request.aggregate_limit }]
    : []),
  ...(request.capacity === undefined ? [] : capacityAmounts(request.capacity)),
];

export const Programme = z
  .object({
    programme_id: z.string(),
    organization_id: z.string(),
    name: z.string(),
    currency: z.string(),
    /** The programme a policy joins when its issue names none: one per organization and currency, made
     *  without limits on first use. */
    is_default: z.boolean(),
    aggregate_limit: z.number().nullable(),
    capacity: z.object({
      zone_default: z.number().nullable(),
      zones: z.array(z.object({ source_id: z.string(), location: z.string(), capacity: z.number() })),
      zone_perils: z.array(
        z.object({ source_id: z.string(), location: z.string(), peril: Peril, capacity: z.number() }),
      ),
    }),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .openapi('Programme');
export type Programme = z.infer<typeof Programme>;

export const ProgrammeListQuery = z.strictObject({
  currency: CurrencyCode.optional(),
  page: PageNumber,
  page_size: PageSize,
});
export type ProgrammeListQuery = z.infer<typeof ProgrammeListQuery>;

export const ProgrammeList = z
  .object({
    items: z.array(Programme),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .openapi('ProgrammeList');
export type ProgrammeList = z.infer<typeof ProgrammeList>;

/** Any id up to 100 characters: an unknown one is a 404, never a 400. */
export const ProgrammePathParams = z.strictObject({ programme_id: z.string().min(1).max(100) });

/** A programme another organization owns is not told apart from one that does not exist. */
export const UNKNOWN_PROGRAMME = {
  description: "Unknown, or another organization's",
  codes: ['programme_not_found'],
} as const;

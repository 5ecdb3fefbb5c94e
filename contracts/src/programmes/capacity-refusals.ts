import { Peril } from '../insurance/peril';
import { z } from '../zod';

// The `errors[]` entries of the two capacity refusals (SPEC §7 "Binding check"). Each carries the numbers,
// as the anchors' errors do (GIF's ErrorBundleServiceCapacityInsufficient(capacity, requested)), in major
// units, beside the `path` and `message` every problem entry has.

export const CapacityLimitKind = z.enum(['zone', 'zone_peril', 'programme_aggregate']).openapi('CapacityLimitKind');
export type CapacityLimitKind = z.infer<typeof CapacityLimitKind>;

const LimitNamed = {
  path: z.string(),
  message: z.string(),
  limit: CapacityLimitKind,
  /** The zone's source and location; absent for the programme aggregate. */
  source_id: z.string().optional(),
  location: z.string().optional(),
  /** Only for a (zone, peril) limit. */
  peril: Peril.optional(),
  capacity: z.number(),
  committed: z.number(),
};

/** 422 `capacity_exceeded`: one per limit the issue would pass. `available` = capacity − committed. */
export const CapacityExceededEntry = z
  .object({ ...LimitNamed, requested: z.number(), available: z.number() })
  .openapi('CapacityExceededEntry');
export type CapacityExceededEntry = z.infer<typeof CapacityExceededEntry>;

/** 422 `capacity_below_committed`: one per limit a PATCH would set below what is already written. */
export const CapacityBelowCommittedEntry = z.object(LimitNamed).openapi('CapacityBelowCommittedEntry');
export type CapacityBelowCommittedEntry = z.infer<typeof CapacityBelowCommittedEntry>;

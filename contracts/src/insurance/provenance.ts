import { z } from '../zod';
import { CalendarDate } from './calendar-date';
import { PerilDataSource } from './index-sources';
import { Peril } from './peril';

/** Each peril's frozen data, as PolicyIssued holds it and a quote shows it (the policy view shows it on
 *  each trigger as `data_source`). */
export const PolicyDataSources = z.partialRecord(Peril, PerilDataSource).openapi('PolicyDataSources');
export type PolicyDataSources = z.infer<typeof PolicyDataSources>;

/** Exactly which readings an evaluation used (SPEC §7 Provenance): an auditor recomputes `digest` from the
 *  readings (date, value, revision) of `source_id` at `location` between `readings_from` and `readings_to`,
 *  without trusting today's table. */
export const ReadingsProvenance = z
  .object({
    ...PerilDataSource.omit({ climatology: true }).shape,
    /** The climatology the blocks were read against (INDEX-DATA §4): its numbers are the policy's. */
    climatology: z.object({ name: z.string(), version: z.number().int(), digest: z.string() }).optional(),
    /** How the trigger aggregates: sum, mean_of_last_days, max_rolling_sum or max. */
    aggregate: z.string(),
    readings_from: CalendarDate,
    readings_to: CalendarDate,
    readings_used: z.number().int().nonnegative(),
    /** `sha256:` + hex of the lines `date,value,revision\n` of the readings used, in date order. */
    digest: z.string(),
  })
  .openapi('ReadingsProvenance');
export type ReadingsProvenance = z.infer<typeof ReadingsProvenance>;

import { z } from '../zod';
import { CalendarDate } from './calendar-date';
import { PerilDataSource } from './index-sources';
import { Peril } from './peril';

/** Each peril's frozen data, as PolicyIssued holds it and a quote shows it (the policy view shows it on
 *  each trigger as `data_source`). */
export const PolicyDataSources = z.partialRecord(Peril, PerilDataSource).openapi('PolicyDataSources');
export type PolicyDataSources = z.infer<typeof PolicyDataSources>;

/** A file the values an evaluation used came from (INDEX-DATA §4): its SHA-256, as the ingestion answered
 *  it and as it is kept (`DATA_DIR/index-files/<sha256>`), the release it was ingested as, and how many of
 *  the values used came from it (a bilinear or unit-mean value counts once for each file its cells came
 *  from). */
export const ReadingsFile = z
  .object({
    /** Hex SHA-256 of the file's bytes. */
    sha256: z.string(),
    /** `?label=` of its ingestion (`prelim`, `final`); null when it had none. */
    label: z.string().nullable(),
    values: z.number().int().positive(),
  })
  .openapi('ReadingsFile');
export type ReadingsFile = z.infer<typeof ReadingsFile>;

/** Where the values an evaluation used came from, beside `digest` (INDEX-DATA §4). Both absent on
 *  evaluations recorded before they were. */
export const readingsOriginFields = {
  /** The distinct files behind the values used, in the order of the first date each was used on (then
   *  by sha256); empty when every value was posted through the readings API. */
  files: z.array(ReadingsFile).optional(),
  /** `sha256:` + hex of the lines `date,value,revision,label,file_sha256\n` of the readings used, in date
   *  order: `digest`'s line with the value's release label and file SHA-256 (hex) appended, each empty
   *  for a value posted through the readings API. A sampled value (bilinear, unit mean) read from cells
   *  of several files lists each file's label and SHA-256, `;`-separated in the same order (by sha256). */
  origin_digest: z.string().optional(),
};

/** Exactly which readings an evaluation used (SPEC §7 Provenance): an auditor recomputes `digest` from the
 *  readings (date, value, revision) of `source_id` at `location` between `readings_from` and `readings_to`,
 *  without trusting today's table, and `origin_digest` with the label and file of each, which names the
 *  kept files to read the values from again (`files`). */
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
    ...readingsOriginFields,
  })
  .openapi('ReadingsProvenance');
export type ReadingsProvenance = z.infer<typeof ReadingsProvenance>;

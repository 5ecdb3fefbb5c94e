import { PageNumber, PageSize } from '../insurance/pagination';
import { Peril } from '../insurance/peril';
import { z } from '../zod';

// GET /insurance/programmes/{id}/exposure (SPEC §7 "Exposure"): what the programme has written, grouped
// by zone, by peril or by source. A policy's sum insured counts once in each zone any of its covers reads,
// once per (zone, peril), and once in the totals.

export const ExposureGrouping = z.enum(['zone', 'peril', 'source']).openapi('ExposureGrouping');
export type ExposureGrouping = z.infer<typeof ExposureGrouping>;

export const ExposureSort = z.enum(['utilisation_desc', 'sum_insured_desc', 'policies_desc']).openapi('ExposureSort');
export type ExposureSort = z.infer<typeof ExposureSort>;

export const ExposureQuery = z.strictObject({
  group_by: ExposureGrouping.default('zone'),
  sort: ExposureSort.default('utilisation_desc'),
  page: PageNumber,
  page_size: PageSize,
});
export type ExposureQuery = z.infer<typeof ExposureQuery>;

export const ExposureGroup = z
  .object({
    /** Present when grouped by zone or source. */
    source_id: z.string().optional(),
    /** Present when grouped by zone. */
    location: z.string().optional(),
    /** Present when grouped by peril. */
    peril: Peril.optional(),
    policies: z.number().int(),
    sum_insured: z.number(),
    premium: z.number(),
    /** The zone's capacity (its override, else the default); null when unlimited or not a zone. */
    capacity: z.number().nullable(),
    /** sum_insured ÷ capacity, 6 decimals; null without a capacity. */
    utilisation: z.number().nullable(),
  })
  .openapi('ExposureGroup');
export type ExposureGroup = z.infer<typeof ExposureGroup>;

export const ProgrammeExposure = z
  .object({
    programme_id: z.string(),
    currency: z.string(),
    group_by: ExposureGrouping,
    totals: z.object({
      policies: z.number().int(),
      sum_insured: z.number(),
      premium: z.number(),
      aggregate_limit: z.number().nullable(),
      utilisation: z.number().nullable(),
    }),
    items: z.array(ExposureGroup),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .openapi('ProgrammeExposure');
export type ProgrammeExposure = z.infer<typeof ProgrammeExposure>;

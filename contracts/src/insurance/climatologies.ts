import { DateTime } from '../common';
import { z } from '../zod';
import { ClimatologyName, PERCENTILE_RANKS } from './climatology-name';
import { PageNumber, PageSize } from './pagination';
import { MonthDay } from './term-sheet';

// INDEX-DATA §3: normals computed from a source's own history, versioned and immutable, so one product
// serves every cell. A version's numbers never change; a policy freezes the numbers of its location.

/** How a year is split: dekads (1–10, 11–20, 21–end), months, MODIS 8- or 16-day periods, n-day periods
 *  from 1 January (the last of a year ending on 31 December), or one window a year. */
export const ClimatologyPeriod = z
  .union([
    z.enum(['dekad', 'month', '8_day', '16_day']),
    z.strictObject({ days: z.number().int().min(1).max(366) }),
    z.strictObject({ window: z.strictObject({ from: MonthDay, to: MonthDay }) }),
  ])
  .openapi('ClimatologyPeriod');
export type ClimatologyPeriod = z.infer<typeof ClimatologyPeriod>;

export const ClimatologyStat = z.enum(['sum', 'mean']).openapi('ClimatologyStat');
export type ClimatologyStat = z.infer<typeof ClimatologyStat>;

const Year = z.number().int().min(1900).max(2200);

export const ClimatologyYears = z
  .strictObject({ from: Year, to: Year })
  .refine((years) => years.to > years.from, { message: 'must span at least two years (to after from)', path: ['to'] })
  .openapi('ClimatologyYears');
export type ClimatologyYears = z.infer<typeof ClimatologyYears>;

export const ClimatologyRequest = z
  .strictObject({
    name: ClimatologyName,
    years: ClimatologyYears,
    period: ClimatologyPeriod,
    stat: ClimatologyStat,
    /** Complete periods a location needs for a normal; default 80 % of the span, rounded up. */
    min_years: z.number().int().min(2).optional(),
  })
  .superRefine((request, context) => {
    const span = request.years.to - request.years.from + 1;
    if (request.min_years !== undefined && request.min_years > span) {
      context.addIssue({ code: 'custom', path: ['min_years'], message: `must be at most the span of ${span} years` });
    }
  })
  .openapi('ClimatologyRequest');
export type ClimatologyRequest = z.infer<typeof ClimatologyRequest>;

/** The nearest-rank percentiles p5, p10, … p95 of a location's period values. */

export const ClimatologyPercentiles = z
  .object(Object.fromEntries(PERCENTILE_RANKS.map((rank) => [`p${rank}`, z.number()])) as Record<string, z.ZodNumber>)
  .openapi('ClimatologyPercentiles');
export type ClimatologyPercentiles = Readonly<Record<string, number>>;

/** One period of one location: `n` complete periods; the normal only with at least `min_years` of them. */
export const ClimatologyNormal = z
  .object({
    /** 1-based within the year (dekad 1–36, month 1–12, 8-day 1–46, …; a window is period 1). */
    period: z.number().int(),
    /** Its first day in a common year (a leap day shifts later 8- and 16-day periods by one). */
    starts: MonthDay,
    n: z.number().int(),
    mean: z.number().nullable(),
    sd: z.number().nullable(),
    percentiles: ClimatologyPercentiles.nullable(),
  })
  .openapi('ClimatologyNormal');
export type ClimatologyNormal = z.infer<typeof ClimatologyNormal>;

export const ClimatologyLocation = z
  .object({ location: z.string(), periods: z.array(ClimatologyNormal) })
  .openapi('ClimatologyLocation');
export type ClimatologyLocation = z.infer<typeof ClimatologyLocation>;

/** A version as computed: its definition, the instant its readings were read as of, and its numbers. */
export const Climatology = z
  .object({
    source_id: z.string(),
    name: z.string(),
    version: z.number().int(),
    /** `sha256:` of the canonical JSON of its definition and numbers (not of its version or instants). */
    digest: z.string(),
    years: ClimatologyYears,
    period: ClimatologyPeriod,
    stat: ClimatologyStat,
    min_years: z.number().int(),
    /** Each reading counts with its latest revision recorded by this instant (the job's start). */
    readings_as_of: DateTime,
    computed_at: DateTime,
    organization_id: z.string(),
    locations: z.array(ClimatologyLocation),
    /** Locations in all, and of this page. */
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .openapi('Climatology');
export type Climatology = z.infer<typeof Climatology>;

export const ClimatologyJobStatus = z.enum(['queued', 'running', 'succeeded', 'failed']);

export const ClimatologyJob = z
  .object({
    job_id: z.string(),
    source_id: z.string(),
    name: z.string(),
    status: ClimatologyJobStatus,
    requested_at: DateTime,
    completed_at: DateTime.nullable(),
    /** The version it made, once succeeded. */
    version: z.number().int().nullable(),
    error: z.object({ code: z.string(), detail: z.string() }).nullable(),
  })
  .openapi('ClimatologyJob');
export type ClimatologyJob = z.infer<typeof ClimatologyJob>;

const SourceId = z.string().min(1).max(100);

export const ClimatologyPathParams = z.strictObject({ source_id: SourceId, name: z.string().min(1).max(100) });
export const ClimatologyVersionPathParams = z.strictObject({
  source_id: SourceId,
  name: z.string().min(1).max(100),
  version: z.coerce.number().int().min(1).max(1_000_000),
});
export const ClimatologyJobPathParams = z.strictObject({
  source_id: SourceId,
  name: z.string().min(1).max(100),
  job_id: z.string().min(1).max(100),
});

export const ClimatologyQuery = z.strictObject({
  location: z.string().min(1).max(200).optional(),
  page: PageNumber,
  page_size: PageSize,
});
export type ClimatologyQuery = z.infer<typeof ClimatologyQuery>;

/** What a policy freezes at issue of the climatology its sheet reads (INDEX-DATA §3): which version, and
 *  exactly the numbers of its location, every period that has a normal — so it replays without it. */
export const FrozenClimatology = z
  .object({
    name: z.string(),
    version: z.number().int(),
    digest: z.string(),
    period: ClimatologyPeriod,
    stat: ClimatologyStat,
    normals: z.array(ClimatologyNormal),
  })
  .openapi('FrozenClimatology');
export type FrozenClimatology = z.infer<typeof FrozenClimatology>;

import { DateTime } from '../common';
import { z } from '../zod';
import { CalendarDate } from './calendar-date';

// INDEX-DATA.md §2.1: the files producers publish, ingested as they are.

export const INDEX_FILE_MEDIA_TYPES = ['image/tiff', 'application/x-netcdf', 'text/csv'] as const;
export type IndexFileMediaType = (typeof INDEX_FILE_MEDIA_TYPES)[number];

/** The most bytes one file may have (decompressed, when sent gzip-encoded). */
export const INDEX_FILE_MAX_BYTES = 1024 ** 3;

/** At most this many values out of bounds are listed in a refusal. */
export const OUT_OF_BOUNDS_LISTED = 100;

const MAX_DATES = 10_000;

export const IndexFileQuery = z
  .strictObject({
    /** The period of a single-band GeoTIFF. */
    date: CalendarDate.optional(),
    /** The periods of a GeoTIFF's bands, in band order, comma separated. */
    dates: z
      .string()
      .max(MAX_DATES * 11)
      .transform((text) => text.split(','))
      .pipe(z.array(CalendarDate).min(1).max(MAX_DATES))
      .optional()
      .openapi({ type: 'string', example: '2024-03-01,2024-03-02' }),
    /** The NetCDF variable to read (e.g. `precip`). */
    variable: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/, { message: 'must be a NetCDF variable name' })
      .optional(),
    /** What this release of the data is (`prelim`, `final`), kept on every value it writes. */
    label: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/, { message: 'must be 1-40 letters, digits, _, . or -' })
      .optional(),
  })
  .refine((query) => query.date === undefined || query.dates === undefined, {
    message: 'give date or dates, not both',
    path: ['dates'],
  });
export type IndexFileQuery = z.infer<typeof IndexFileQuery>;

export const IndexFileIngestionStatus = z
  .enum(['queued', 'running', 'succeeded', 'failed'])
  .openapi('IndexFileIngestionStatus');

export const IndexFileIngestion = z
  .object({
    ingestion_id: z.string(),
    source_id: z.string(),
    status: IndexFileIngestionStatus,
    /** Hex SHA-256 of the file (decompressed): the same bytes again answer this ingestion. */
    sha256: z.string(),
    content_type: z.string(),
    label: z.string().nullable(),
    bytes: z.number().int(),
    /** Periods (dates) the file holds. */
    periods: z.number().int(),
    /** Locations read from it. */
    locations: z.number().int(),
    /** Which cells of a grid file were kept (INDEX-DATA §2.2): every cell while the source had no
     *  location of interest, else only its cells of interest. */
    cells_kept: z.enum(['every_cell', 'cells_of_interest']),
    /** Readings recorded for a key that had none. */
    readings_written: z.number().int(),
    /** Readings whose value changed: each a new revision. */
    revisions_written: z.number().int(),
    /** Values the file marks missing (fill values, nodata, producers' sentinels): never written. */
    missing: z.number().int(),
    /** Why a job failed: the problem a direct answer would have carried. */
    error: z
      .object({
        code: z.string(),
        detail: z.string(),
        errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
      })
      .nullable(),
    received_at: DateTime,
    finished_at: DateTime.nullable(),
  })
  .openapi('IndexFileIngestion');
export type IndexFileIngestion = z.infer<typeof IndexFileIngestion>;

export const IndexFilePathParams = z.strictObject({
  source_id: z.string().min(1).max(100),
  ingestion_id: z.string().min(1).max(100),
});

import { DateTime, TrimmedText } from '../common';
import { FieldId } from '../registry/field';
import { z } from '../zod';
import { CalendarDate } from './calendar-date';
import { IndexSourceId } from './index-sources';
import { PageNumber, PageSize } from './pagination';
import { ReadingIndex } from './peril';
import { FarmReference } from './quote';

/** Plausible physical range of each reading. Missing-value sentinels such as -9999 fall outside it and
 *  are refused, so a gap is never read as a value. */
export const READING_BOUNDS: Readonly<Record<ReadingIndex, { readonly min: number; readonly max: number }>> = {
  rainfall_mm: { min: 0, max: 1000 },
  ndvi: { min: -1, max: 1 },
  wind_speed_ms: { min: 0, max: 120 },
  tmin_c: { min: -60, max: 60 },
  tmax_c: { min: -60, max: 60 },
  relative_humidity_pct: { min: 0, max: 100 },
  water_balance_mm: { min: -1000, max: 1000 },
  area_yield_t_ha: { min: 0, max: 100 },
  loss_factor: { min: 0, max: 1 },
  tmax_f: { min: -76, max: 140 },
  tmin_f: { min: -76, max: 140 },
  tmean_c: { min: -60, max: 60 },
  predicted_mortality_pct: { min: 0, max: 100 },
  // A score, unbounded in its unit; these bounds only keep a gap's fill finite.
  forage_index: { min: -1_000_000, max: 1_000_000 },
  // Integer minor units of the sheet's currency (a modelled loss pays through a tick at 1 per unit).
  modelled_loss_minor: { min: 0, max: 1_000_000_000_000 },
  area_yield_bu_ac: { min: 0, max: 1000 },
};

export const MAX_READINGS_PER_REQUEST = 10_000;

/** The most characters a posted location may have: a field location is `farm_id/field_id`. */
const LOCATION_MAX = 200;

type ReadingKeys = Partial<Record<'source_id' | 'location' | 'farm_id' | 'field_id' | 'index', unknown>>;

const BY_SOURCE = ['source_id', 'location'] as const;
const BY_FIELD = ['farm_id', 'field_id'] as const;

/** A reading, or a readings query, names its location by source or by field, never both: mixing them is
 *  reported on each of the keys actually given (never on one the request does not contain), and a
 *  missing key of the chosen shape as required. False when the shapes are mixed. */
const checkOneShape = (
  given: ReadingKeys,
  context: z.RefinementCtx,
  requiredByField: readonly (keyof ReadingKeys)[],
): boolean => {
  const present = (key: keyof ReadingKeys) => given[key] !== undefined;
  const bySource = BY_SOURCE.some(present);
  if (bySource && BY_FIELD.some(present)) {
    for (const key of [...BY_SOURCE, ...BY_FIELD].filter(present)) {
      context.addIssue({
        code: 'custom',
        path: [key],
        message: 'give source_id and location, or farm_id and field_id, not both',
      });
    }
    return false;
  }
  for (const key of (bySource ? BY_SOURCE : requiredByField).filter((key) => !present(key)))
    context.addIssue({ code: 'custom', path: [key], message: 'is required' });
  return true;
};

/** One reading in one of two shapes (SPEC §7): by source and location (`source_id`, `location`: the
 *  station id, any `"lat,lon"` inside the grid cell, or `"farm_id/field_id"`), or per field (`farm_id`,
 *  `field_id`, `index`), which writes the caller organization's own field source. `index` may accompany
 *  a source and must then be the source's. `source` is a free-text label, informational only. */
export const IndexReading = z
  .strictObject({
    source_id: IndexSourceId.optional(),
    location: z.string().min(1).max(LOCATION_MAX).optional(),
    farm_id: FarmReference.optional(),
    field_id: FieldId.optional(),
    index: ReadingIndex.optional(),
    date: CalendarDate,
    value: z.number(),
    source: TrimmedText(200).optional(),
  })
  .superRefine((reading, context) => {
    if (!checkOneShape(reading, context, ['farm_id', 'field_id', 'index'])) return;
    if (reading.index === undefined) return;
    const { min, max } = READING_BOUNDS[reading.index];
    if (reading.value < min || reading.value > max) {
      context.addIssue({ code: 'custom', path: ['value'], message: `${reading.index} must be from ${min} to ${max}` });
    }
  })
  .openapi('IndexReading');
export type IndexReading = z.infer<typeof IndexReading>;

/** The key a reading upserts under, as posted; the application checks again once locations are resolved. */
const readingKey = (reading: IndexReading): string =>
  JSON.stringify([reading.source_id, reading.location, reading.farm_id, reading.field_id, reading.index, reading.date]);

/** All or nothing: one bad reading refuses the request. A key given twice is ambiguous, so refused. */
export const IndexReadingsRequest = z
  .strictObject({
    readings: z
      .array(IndexReading)
      .min(1, { message: 'must hold at least one reading' })
      .max(MAX_READINGS_PER_REQUEST, { message: `must hold at most ${MAX_READINGS_PER_REQUEST} readings` }),
  })
  .superRefine((request, context) => {
    const seen = new Set<string>();
    request.readings.forEach((reading, at) => {
      const key = readingKey(reading);
      if (seen.has(key)) {
        context.addIssue({
          code: 'custom',
          path: ['readings', at],
          message: 'repeats the location, index and date of an earlier reading',
        });
      }
      seen.add(key);
    });
  })
  .openapi('IndexReadingsRequest');
export type IndexReadingsRequest = z.infer<typeof IndexReadingsRequest>;

export const IndexReadingsResponse = z
  .object({ accepted: z.number().int(), inserted: z.number().int(), updated: z.number().int() })
  .openapi('IndexReadingsResponse');
export type IndexReadingsResponse = z.infer<typeof IndexReadingsResponse>;

/** GET /insurance/index-readings: the readings of one source at one location (`source_id`, `location`
 *  as posted), or of one field (`farm_id`, `field_id`) from the caller organization's own field source;
 *  optionally of one index and a date range. */
export const IndexReadingsQuery = z
  .strictObject({
    source_id: IndexSourceId.optional(),
    location: z.string().min(1).max(LOCATION_MAX).optional(),
    farm_id: FarmReference.optional(),
    field_id: FieldId.optional(),
    index: ReadingIndex.optional(),
    from: CalendarDate.optional(),
    to: CalendarDate.optional(),
    page: PageNumber,
    page_size: PageSize,
  })
  .superRefine((query, context) => {
    checkOneShape(query, context, ['farm_id', 'field_id']);
    if (query.from !== undefined && query.to !== undefined && query.to < query.from) {
      context.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    }
  });
export type IndexReadingsQuery = z.infer<typeof IndexReadingsQuery>;

export const RecordedIndexReading = z
  .object({
    source_id: z.string(),
    location: z.string(),
    /** Present when the location is a field. */
    farm_id: z.string().optional(),
    field_id: z.string().optional(),
    index: ReadingIndex,
    date: CalendarDate,
    value: z.number(),
    source: z.string().nullable().openapi({ description: "the provider's free-text label" }),
    revision: z.number().int().openapi({ description: '1 when first recorded; +1 per replacement' }),
    recorded_at: DateTime,
  })
  .openapi('RecordedIndexReading');
export type RecordedIndexReading = z.infer<typeof RecordedIndexReading>;

export const IndexReadingList = z
  .object({
    items: z.array(RecordedIndexReading),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .openapi('IndexReadingList');
export type IndexReadingList = z.infer<typeof IndexReadingList>;

import { DateTime, TrimmedText } from '../common';
import { FieldId } from '../registry/field';
import { z } from '../zod';
import { CalendarDate } from './calendar-date';
import { PageNumber, PageSize } from './pagination';
import { ReadingIndex } from './peril';
import { FarmReference } from './quote';

/** Plausible physical range of each reading. Missing-value sentinels such as -9999 fall outside it and
 *  are refused, so a gap is never read as a value. */
export const READING_BOUNDS: Readonly<Record<ReadingIndex, { readonly min: number; readonly max: number }>> = {
  rainfall_mm: { min: 0, max: 1000 },
  ndvi: { min: -1, max: 1 },
  wind_speed_ms: { min: 0, max: 120 },
};

export const MAX_READINGS_PER_REQUEST = 10_000;

export const IndexReading = z
  .strictObject({
    farm_id: FarmReference,
    field_id: FieldId,
    index: ReadingIndex,
    date: CalendarDate,
    value: z.number(),
    source: TrimmedText(200).optional(),
  })
  .superRefine((reading, context) => {
    const { min, max } = READING_BOUNDS[reading.index];
    if (reading.value < min || reading.value > max) {
      context.addIssue({ code: 'custom', path: ['value'], message: `${reading.index} must be from ${min} to ${max}` });
    }
  })
  .openapi('IndexReading');
export type IndexReading = z.infer<typeof IndexReading>;

const readingKey = (reading: IndexReading): string =>
  JSON.stringify([reading.farm_id, reading.field_id, reading.index, reading.date]);

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
          message: 'repeats the farm_id, field_id, index and date of an earlier reading',
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

/** GET /insurance/index-readings: one field's readings, optionally of one index and a date range. */
export const IndexReadingsQuery = z
  .strictObject({
    farm_id: FarmReference,
    field_id: FieldId,
    index: ReadingIndex.optional(),
    from: CalendarDate.optional(),
    to: CalendarDate.optional(),
    page: PageNumber,
    page_size: PageSize,
  })
  .superRefine((query, context) => {
    if (query.from !== undefined && query.to !== undefined && query.to < query.from) {
      context.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    }
  });
export type IndexReadingsQuery = z.infer<typeof IndexReadingsQuery>;

export const RecordedIndexReading = z
  .object({
    farm_id: z.string(),
    field_id: z.string(),
    index: ReadingIndex,
    date: CalendarDate,
    value: z.number(),
    source: z.string().nullable(),
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

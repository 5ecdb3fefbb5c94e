import type { ReadingIndex } from '@cropcover/contracts';
import { addDays } from '../insurance/calendar/calendar-date';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import type { ReadingHistory } from '../insurance/index-data/reading-history';

// Readings as the store hands them to the deciders: each first recorded (revision 1) unless a test
// corrects one.

/** One reading of `date`, first recorded unless `revision` says it was replaced. */
export const reading = (date: string, value: number, revision = 1): IndexObservation => ({ date, value, revision });

/** One reading a day from `from`, each first recorded. */
export const dailyReadings = (from: string, values: readonly number[]): IndexObservation[] =>
  values.map((value, at) => reading(addDays(from, at), value));

/** `date`/`value` pairs as first recorded readings. */
export const firstRecorded = (readings: readonly { date: string; value: number }[]): IndexObservation[] =>
  readings.map(({ date, value }) => reading(date, value));

/** A field's own readings per index, as the store keeps them. */
export type FieldReadings = Record<
  Extract<ReadingIndex, 'rainfall_mm' | 'ndvi' | 'wind_speed_ms'>,
  readonly IndexObservation[]
>;

/** What each peril reads of the field's own readings: drought and flood share the rainfall. */
export const readingsByPeril = (stored: FieldReadings): ReadingHistory => ({
  drought: stored.rainfall_mm,
  flood: stored.rainfall_mm,
  vegetation_stress: stored.ndvi,
  storm: stored.wind_speed_ms,
});

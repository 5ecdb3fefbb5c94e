import { READING_BOUNDS, UNIT_BOUNDS } from '@cropcover/contracts';
import { scaleRounded, unscale } from '../insurance/money/decimal';
import { longestPeriodDays, periodOf } from './cadence';
import type { RegisteredIndexSource } from './index-source';

/** What a value of a source may be on one date (INDEX-DATA.md §1). */
export interface ReadingBounds {
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
  /** Decimal places a value keeps. */
  readonly decimals: number;
}

/** A source registered with a unit is bounded by the unit (rain per day of the period: a dekad may hold ten
 *  days of it); one without, by its index name as before. */
export const readingBoundsOf = (
  source: Pick<RegisteredIndexSource, 'index' | 'unit' | 'cadence'>,
  date: string,
): ReadingBounds => {
  if (source.unit === null) return { ...READING_BOUNDS[source.index], integer: false, decimals: 6 };
  const unit = UNIT_BOUNDS[source.unit];
  if (!unit.perPeriodDay) return unit;
  const days = source.cadence === 'season' ? longestPeriodDays('season') : periodOf(source.cadence, date).days;
  return { ...unit, max: unit.max * days };
};

/** Whether `value` is one the source may hold on `date`. */
export const withinBounds = (bounds: ReadingBounds, value: number): boolean =>
  Number.isFinite(value) && value >= bounds.min && value <= bounds.max && (!bounds.integer || Number.isInteger(value));

/** A producer's value as the source keeps it: rounded once, half up, to the unit's decimals. */
export const keptValue = (bounds: ReadingBounds, value: number): number =>
  unscale(scaleRounded(value, bounds.decimals), bounds.decimals);

import type {
  Cadence,
  ClimatologyLocation,
  ClimatologyPeriod,
  ClimatologyStat,
  ClimatologyYears,
} from '@cropcover/contracts';
import { dateOfDay, dayNumber } from '../../insurance/calendar/calendar-date';
import { millionthsOf } from '../../insurance/money/decimal';
import { type Rational, rationalOf } from '../../insurance/money/rational';
import { periodOf } from '../cadence';
import { periodStarts, periodsOfYear } from './climatology-periods';
import { exactNormalOf } from './exact-statistics';

/** What a climatology is computed from: the definition a request gives, its default filled in. */
export interface ClimatologyDefinition {
  readonly years: ClimatologyYears;
  readonly period: ClimatologyPeriod;
  readonly stat: ClimatologyStat;
  readonly minYears: number;
  /** The source's cadence: each reading covers one of its periods, dated by its first day. */
  readonly cadence: Cadence;
}

/** A location's values (6 decimals at most) by the day number that dates each: the latest revision. */
export interface LocationSeries {
  readonly location: string;
  readonly days: ReadonlyMap<number, number>;
}

/** 80 % of the span, rounded up: fewer complete periods than this and a location has no normal. */
export const defaultMinYears = (years: ClimatologyYears): number => Math.ceil(((years.to - years.from + 1) * 4) / 5);

/** The period's value in millionths, or undefined when it is not complete: it is read as the readings of
 *  the source's cadence that tile it (one a day for a daily source, one a dekad for a dekadal one…), and a
 *  missing one, or a reading running past either end, leaves it incomplete (a sum over a gap would say
 *  less rain than fell). A mean is the mean of those readings. */
const periodValue = (
  days: ReadonlyMap<number, number>,
  first: number,
  last: number,
  stat: ClimatologyStat,
  cadence: Cadence,
) => {
  let sum = 0n;
  let readings = 0n;
  for (let day = first; day <= last; ) {
    const covered = periodOf(cadence, dateOfDay(day));
    const end = dayNumber(covered.end);
    const value = days.get(day);
    if (dayNumber(covered.start) !== day || end > last || value === undefined) return undefined;
    sum += millionthsOf(value);
    readings += 1n;
    day = end + 1;
  }
  return stat === 'sum' ? rationalOf(sum, 1n) : rationalOf(sum, readings);
};

/**
 * A location's normals (INDEX-DATA §3): per period of the year, over the years `from`–`to` (a period
 * belongs to the year it starts in), the number of complete periods and — with at least `minYears` of
 * them — their mean, sample standard deviation and nearest-rank percentiles, computed exactly from the
 * stored 6-decimal values and rounded once to 6 decimals, half up.
 */
export const locationNormals = (definition: ClimatologyDefinition, series: LocationSeries): ClimatologyLocation => {
  const starts = periodStarts(definition.period);
  const valuesByPeriod: Rational[][] = starts.map(() => []);
  for (let year = definition.years.from; year <= definition.years.to; year += 1) {
    for (const { period, first, last } of periodsOfYear(definition.period, year)) {
      const value = periodValue(series.days, first, last, definition.stat, definition.cadence);
      if (value !== undefined) valuesByPeriod[period - 1]?.push(value);
    }
  }
  return {
    location: series.location,
    periods: valuesByPeriod.map((values, at) => {
      const entry = { period: at + 1, starts: starts[at] ?? '', n: values.length };
      return values.length >= definition.minYears
        ? { ...entry, ...exactNormalOf(values) }
        : { ...entry, mean: null, sd: null, percentiles: null };
    }),
  };
};

import type { BreachDeclarable, Comparison, TriggerAggregation, TriggerTerms } from '@cropcover/contracts';
import { dayNumber, earlierDate } from './calendar-date';
import type { CoverTerm } from './cover-term';
import { divideRounded, largerOf, scaleExact, scaleRounded, unscale } from './decimal';
import { INDEX_PLACES } from './product-catalog';
import { FULL_SEVERITY_PPM } from './severity';

/** One reading of the trigger's index on one UTC date. */
export interface IndexObservation {
  readonly date: string;
  readonly value: number;
}

export interface TriggerOutcome {
  readonly windowStart: string;
  readonly windowEnd: string;
  /** The aggregate, rounded half-up to 6 decimals; null when no reading could be used. */
  readonly observedValue: number | null;
  readonly readingsUsed: number;
  readonly breached: boolean;
  readonly severityPpm: number;
}

/** An aggregate as an exact fraction of index units × 10^6 (a mean is rarely a finite decimal). */
export interface Aggregate {
  readonly numerator: bigint;
  readonly denominator: bigint;
  readonly readingsUsed: number;
}

/** A reading as the evaluation uses it: its day number and its value in index units × 10^6. */
export type DayValue = readonly [day: number, value: bigint];

const sumOf = (values: readonly DayValue[]): bigint => values.reduce((sum, [, value]) => sum + value, 0n);

// Missing days are never read as zero. A sum over the window (drought) fills each missing day with the
// mean of the days that have a reading, so a gap in the data neither makes nor hides a drought. A
// rolling sum (flood) adds the readings present in each 5-day span: a gap can hide a flood, never make one.
export const aggregateWindow = (
  aggregation: TriggerAggregation,
  readings: readonly DayValue[],
  startDay: number,
  endDay: number,
): Aggregate | null => {
  if (readings.length === 0) return null;
  switch (aggregation.kind) {
    case 'sum':
      return {
        numerator: sumOf(readings) * BigInt(endDay - startDay + 1),
        denominator: BigInt(readings.length),
        readingsUsed: readings.length,
      };
    case 'max_rolling_sum': {
      let peak = 0n;
      let running = 0n;
      let first = 0;
      for (const [day, value] of readings) {
        running += value;
        while (readings[first]![0] <= day - aggregation.days) {
          running -= readings[first]![1];
          first += 1;
        }
        if (running > peak) peak = running;
      }
      return { numerator: peak, denominator: 1n, readingsUsed: readings.length };
    }
    case 'mean_of_last_days': {
      const recent = readings.filter(([day]) => day > endDay - aggregation.days);
      if (recent.length === 0) return null;
      return { numerator: sumOf(recent), denominator: BigInt(recent.length), readingsUsed: recent.length };
    }
    case 'max':
      return {
        numerator: readings.reduce((peak, [, value]) => largerOf(peak, value), readings[0]![1]),
        denominator: 1n,
        readingsUsed: readings.length,
      };
  }
};

/** Whether a breach of a window [startDay, windowEndDay] of a term ending on endDay may be declared. */
export const isDeclarableOn = (
  declarable: BreachDeclarable,
  startDay: number,
  endDay: number,
  windowEndDay: number,
): boolean => {
  switch (declarable.kind) {
    case 'any_time':
      return true;
    case 'window_closed':
      return windowEndDay === endDay;
    case 'after_term_days':
      return windowEndDay - startDay + 1 >= declarable.days;
  }
};

const indexUnits = (level: number): bigint => {
  const units = scaleExact(level, INDEX_PLACES);
  if (units === undefined) throw new RangeError(`trigger level ${level} has more than ${INDEX_PLACES} decimals`);
  return units;
};

/** A trigger's levels in index units × 10^6, read once for the many aggregates a season compares. */
export interface TriggerLevels {
  readonly comparison: Comparison;
  readonly threshold: bigint;
  readonly exit: bigint;
}

export const triggerLevels = (terms: TriggerTerms): TriggerLevels => ({
  comparison: terms.comparison,
  threshold: indexUnits(terms.threshold),
  exit: indexUnits(terms.exit),
});

const absolute = (value: bigint): bigint => (value < 0n ? -value : value);

/** How far the aggregate `numerator / denominator` went past the threshold, linear from threshold (0)
 *  to exit (1) and rounded half-up to millionths; undefined when it did not reach the threshold. */
export const crossingSeverityPpm = (
  levels: TriggerLevels,
  numerator: bigint,
  denominator: bigint,
): number | undefined => {
  const threshold = levels.threshold * denominator;
  const crossed = levels.comparison === 'lte' ? numerator <= threshold : numerator >= threshold;
  if (!crossed) return undefined;
  const span = absolute(levels.exit * denominator - threshold);
  return span === 0n
    ? FULL_SEVERITY_PPM
    : Math.min(
        FULL_SEVERITY_PPM,
        Number(divideRounded(absolute(numerator - threshold) * BigInt(FULL_SEVERITY_PPM), span)),
      );
};

/** The trigger as of `asOf`: window [term start, min(asOf, term end)]; severity linear from threshold
 *  (0) to exit (1), rounded half-up to millionths. */
export const evaluateTrigger = (
  terms: TriggerTerms,
  readings: readonly IndexObservation[],
  asOf: string,
  term: CoverTerm,
): TriggerOutcome => {
  const windowStart = term.start;
  const windowEnd = earlierDate(asOf, term.end);
  const startDay = dayNumber(windowStart);
  const endDay = dayNumber(windowEnd);
  // One value per date; a later duplicate in the list replaces an earlier one, as the upsert does.
  const byDay = new Map<number, bigint>();
  for (const reading of readings) {
    const day = dayNumber(reading.date);
    if (day >= startDay && day <= endDay) byDay.set(day, scaleRounded(reading.value, INDEX_PLACES));
  }
  const inWindow = [...byDay.entries()].sort(([a], [b]) => a - b);
  const observed = aggregateWindow(terms.aggregation, inWindow, startDay, endDay);
  if (observed === null) {
    return { windowStart, windowEnd, observedValue: null, readingsUsed: 0, breached: false, severityPpm: 0 };
  }
  const { numerator, denominator } = observed;
  const depth = crossingSeverityPpm(triggerLevels(terms), numerator, denominator);
  const breached = depth !== undefined && isDeclarableOn(terms.declarable, startDay, dayNumber(term.end), endDay);
  const severityPpm = breached ? depth : 0;
  return {
    windowStart,
    windowEnd,
    observedValue: unscale(divideRounded(numerator, denominator), INDEX_PLACES),
    readingsUsed: observed.readingsUsed,
    breached,
    severityPpm,
  };
};

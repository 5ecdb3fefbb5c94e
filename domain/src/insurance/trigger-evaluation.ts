import {
  type BreachDeclarable,
  type Comparison,
  READING_BOUNDS,
  type SkipReason,
  type TriggerAggregation,
  type TriggerTerms,
} from '@cropcover/contracts';
import { dayNumber, earlierDate } from './calendar-date';
import type { CoverTerm } from './cover-term';
import { divideRounded, largerOf, scaleExact, scaleRounded, unscale } from './decimal';
import { INDEX_PLACES, minimumCoverageOf } from './product-catalog';
import { type ExactSeverity, exactSeverity, NO_SEVERITY, severityPpmOfExact } from './severity';

/** One reading of the trigger's index on one UTC date. */
export interface IndexObservation {
  readonly date: string;
  readonly value: number;
  /** 1 when first recorded, +1 per replacement: part of what an evaluation's digest proves it used. */
  readonly revision: number;
}

/** How much of the aggregate's window the readings cover (SPEC §7 Completeness). */
export interface Coverage {
  readonly daysWithReading: number;
  readonly daysInWindow: number;
}

/** A trigger as of a date: evaluated on enough data, or skipped and why (never read as not breached). */
export type TriggerOutcome = {
  readonly windowStart: string;
  readonly windowEnd: string;
  readonly coverage: Coverage;
} & (
  | {
      /** The aggregate, rounded half-up to 6 decimals. */
      readonly observedValue: number;
      readonly skipReason: null;
      readonly readingsUsed: number;
      readonly breached: boolean;
      /** Exact, for the payout; 0 when not breached. */
      readonly severity: ExactSeverity;
      /** `severity` rounded to millionths, for display. */
      readonly severityPpm: number;
    }
  | {
      readonly observedValue: null;
      readonly skipReason: SkipReason;
      readonly readingsUsed: 0;
      readonly breached: false;
      readonly severity: ExactSeverity;
      readonly severityPpm: 0;
    }
);

/** An aggregate as an exact fraction of index units × 10^6 (a mean is rarely a finite decimal), or why
 *  the window has none. */
export type WindowAggregate =
  | {
      readonly kind: 'aggregate';
      readonly numerator: bigint;
      readonly denominator: bigint;
      readonly coverage: Coverage;
    }
  | { readonly kind: 'skipped'; readonly reason: SkipReason; readonly coverage: Coverage };

/** A reading as the evaluation uses it: its day number and its value in index units × 10^6. */
export type DayValue = readonly [day: number, value: bigint];

const sumOf = (values: readonly DayValue[]): bigint => values.reduce((sum, [, value]) => sum + value, 0n);

// Coverage fractions are millionths, like severities: 0.9 is 900000.
const COVERAGE_PLACES = 6;
const PPM = 1_000_000n;

/** Whether readings on `daysWithReading` of `daysInWindow` days meet the trigger's coverage, exactly:
 *  days / window ≥ coverage ppm / 10^6, compared as integer cross products. */
export const isCompleteEnough = (levels: TriggerLevels, { daysWithReading, daysInWindow }: Coverage): boolean =>
  BigInt(daysWithReading) * PPM >= levels.minimumCoveragePpm * BigInt(daysInWindow);

/** A sum (`perDay` false) or a mean of a window from `total` over the days present. Too few days and it
 *  is skipped: a window is never filled in from a few days. A complete-enough window takes each missing
 *  day at the reading's bound away from a breach (1000 mm of rain for a drought), so a breach stands
 *  only when it would hold whatever the missing days were, and no missing day is ever read as zero. */
export const windowAggregate = (
  levels: TriggerLevels,
  total: bigint,
  coverage: Coverage,
  perDay: boolean,
): WindowAggregate => {
  if (coverage.daysWithReading === 0) return { kind: 'skipped', reason: 'no_data', coverage };
  if (!isCompleteEnough(levels, coverage)) return { kind: 'skipped', reason: 'incomplete_data', coverage };
  const missingDays = BigInt(coverage.daysInWindow - coverage.daysWithReading);
  return {
    kind: 'aggregate',
    numerator: total + missingDays * levels.missingDayValue,
    denominator: perDay ? BigInt(coverage.daysInWindow) : 1n,
    coverage,
  };
};

// A maximum is taken over the days present: a gap can hide a flood or a storm, never make one. A rolling
// sum (flood) adds the readings present in each 5-day span.
const maximumOf = (aggregation: TriggerAggregation, readings: readonly DayValue[]): bigint => {
  if (aggregation.kind !== 'max_rolling_sum') {
    return readings.reduce((peak, [, value]) => largerOf(peak, value), readings[0]![1]);
  }
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
  return peak;
};

/** The trigger's aggregate of the readings of [startDay, endDay] (one per day, by day). */
export const aggregateWindow = (
  levels: TriggerLevels,
  aggregation: TriggerAggregation,
  readings: readonly DayValue[],
  startDay: number,
  endDay: number,
): WindowAggregate => {
  const windowDays = Math.max(0, endDay - startDay + 1);
  switch (aggregation.kind) {
    case 'sum':
      return windowAggregate(
        levels,
        sumOf(readings),
        { daysWithReading: readings.length, daysInWindow: windowDays },
        false,
      );
    case 'mean_of_last_days': {
      const recent = readings.filter(([day]) => day > endDay - aggregation.days);
      const coverage = { daysWithReading: recent.length, daysInWindow: Math.min(aggregation.days, windowDays) };
      return windowAggregate(levels, sumOf(recent), coverage, true);
    }
    case 'max_rolling_sum':
    case 'max': {
      const coverage = { daysWithReading: readings.length, daysInWindow: windowDays };
      if (readings.length === 0) return { kind: 'skipped', reason: 'no_data', coverage };
      return { kind: 'aggregate', numerator: maximumOf(aggregation, readings), denominator: 1n, coverage };
    }
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
  /** The coverage a sum or a mean needs, in millionths. */
  readonly minimumCoveragePpm: bigint;
  /** What a missing day counts as in a complete-enough sum or mean: the reading's bound away from a
   *  breach (its maximum when the trigger breaches low, its minimum when it breaches high). */
  readonly missingDayValue: bigint;
}

export const triggerLevels = (terms: TriggerTerms): TriggerLevels => {
  const bounds = READING_BOUNDS[terms.reading];
  const coverage = minimumCoverageOf(terms);
  const coveragePpm = scaleExact(coverage, COVERAGE_PLACES);
  if (coveragePpm === undefined) throw new RangeError(`coverage ${coverage} has more than ${COVERAGE_PLACES} decimals`);
  return {
    comparison: terms.comparison,
    threshold: indexUnits(terms.threshold),
    exit: indexUnits(terms.exit),
    minimumCoveragePpm: coveragePpm,
    missingDayValue: indexUnits(terms.comparison === 'lte' ? bounds.max : bounds.min),
  };
};

const absolute = (value: bigint): bigint => (value < 0n ? -value : value);

/** How far the aggregate `numerator / denominator` went past the threshold, linear from threshold (0)
 *  to exit (1), as an exact fraction; undefined when it did not reach the threshold. */
export const crossingSeverity = (
  levels: TriggerLevels,
  numerator: bigint,
  denominator: bigint,
): ExactSeverity | undefined => {
  const threshold = levels.threshold * denominator;
  const crossed = levels.comparison === 'lte' ? numerator <= threshold : numerator >= threshold;
  if (!crossed) return undefined;
  return exactSeverity(absolute(numerator - threshold), absolute(levels.exit * denominator - threshold));
};

/** `crossingSeverity` rounded half-up to millionths: what a past season's burning cost reads. */
export const crossingSeverityPpm = (
  levels: TriggerLevels,
  numerator: bigint,
  denominator: bigint,
): number | undefined => {
  const severity = crossingSeverity(levels, numerator, denominator);
  return severity === undefined ? undefined : severityPpmOfExact(severity);
};

/** The readings of [windowStart, windowEnd] as the evaluation uses them: one per day, by day, in index
 *  units × 10^6; a later duplicate of a date in the list replaces an earlier one, as the upsert does. */
export const windowReadings = (
  readings: readonly IndexObservation[],
  windowStart: string,
  windowEnd: string,
): DayValue[] => {
  const byDay = new Map<number, bigint>();
  // Dates are ISO calendar dates, which compare as text: only the window's few are parsed (known loss
  // evaluates the term so far against 30 years of history).
  for (const reading of readings) {
    if (reading.date < windowStart || reading.date > windowEnd) continue;
    byDay.set(dayNumber(reading.date), scaleRounded(reading.value, INDEX_PLACES));
  }
  return [...byDay.entries()].sort(([a], [b]) => a - b);
};

/** An aggregate as evaluations record and show it: rounded half-up to 6 decimals. */
export const observedValueOf = ({ numerator, denominator }: { numerator: bigint; denominator: bigint }): number =>
  unscale(divideRounded(numerator, denominator), INDEX_PLACES);

/** The trigger as of `asOf`: window [term start, min(asOf, term end)]; severity linear from threshold
 *  (0) to exit (1), exact, and rounded half-up to millionths for display. */
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
  const inWindow = windowReadings(readings, windowStart, windowEnd);
  const levels = triggerLevels(terms);
  const observed = aggregateWindow(levels, terms.aggregation, inWindow, startDay, endDay);
  const { coverage } = observed;
  if (observed.kind === 'skipped') {
    return {
      windowStart,
      windowEnd,
      observedValue: null,
      readingsUsed: 0,
      breached: false,
      severity: NO_SEVERITY,
      severityPpm: 0,
      coverage,
      skipReason: observed.reason,
    };
  }
  const { numerator, denominator } = observed;
  const crossing = crossingSeverity(levels, numerator, denominator);
  const breached = crossing !== undefined && isDeclarableOn(terms.declarable, startDay, dayNumber(term.end), endDay);
  const severity = breached ? crossing : NO_SEVERITY;
  return {
    windowStart,
    windowEnd,
    observedValue: observedValueOf(observed),
    readingsUsed: coverage.daysWithReading,
    breached,
    severity,
    severityPpm: severityPpmOfExact(severity),
    coverage,
    skipReason: null,
  };
};

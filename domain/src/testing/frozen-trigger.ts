import type { SkipReason, TriggerTerms } from '@cropcover/contracts';
import { daysBetween, earlierDate } from '../insurance/calendar/calendar-date';
import type { CoverTerm } from '../insurance/calendar/cover-term';
import { dayValuesIn } from '../insurance/index-data/day-values';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import type { SeasonReadings } from '../insurance/index-data/season-readings';
import { decimalOfMillionths } from '../insurance/money/decimal';
import { millionthsOfRational } from '../insurance/money/rational';
import { type ExactSeverity, NO_SEVERITY, severityPpmOfExact } from '../insurance/money/severity';
import { deepestSeasonShare, evaluateCover, seasonShare } from '../insurance/term-sheet/evaluate-cover';
import type { Coverage } from '../insurance/term-sheet/index-pipeline';
import { coverOfTrigger } from '../insurance/term-sheet/upcast';

// The trigger API of the policies issued before term sheets — one frozen trigger over the whole term —
// as a view of the term-sheet engine, through the very upcast such a policy is read with. The tests
// written against that API (the trigger table, completeness, the season severities) keep their
// assertions and now hold the engine to them.

/** A trigger as of a date: evaluated on enough data, or skipped and why. */
export interface TriggerOutcome {
  readonly windowStart: string;
  readonly windowEnd: string;
  readonly coverage: Coverage;
  /** The aggregate, rounded half-up to 6 decimals; null when skipped. */
  readonly observedValue: number | null;
  readonly skipReason: SkipReason | null;
  readonly readingsUsed: number;
  readonly breached: boolean;
  /** Exact, for the payout; 0 when not breached. */
  readonly severity: ExactSeverity;
  /** `severity` rounded to millionths, for display. */
  readonly severityPpm: number;
}

/** The frozen trigger as of `asOf`: its one phase over [term start, min(asOf, term end)]. */
export const evaluateTrigger = (
  terms: TriggerTerms,
  readings: readonly IndexObservation[],
  asOf: string,
  term: CoverTerm,
): TriggerOutcome => {
  const cover = coverOfTrigger(terms, term);
  const outcome = evaluateCover(
    { cover, amounts: { unit: 'share' }, term, readings: dayValuesIn(readings, term.start, term.end) },
    asOf,
  );
  const [phase] = outcome.phases;
  const windowEnd = earlierDate(asOf, term.end);
  const coverage = phase?.coverage ?? {
    daysWithReading: 0,
    daysInWindow: Math.max(0, daysBetween(term.start, windowEnd) + 1),
  };
  const index = phase?.index;
  return {
    windowStart: term.start,
    windowEnd,
    coverage,
    observedValue: index === undefined ? null : decimalOfMillionths(index.numerator, index.denominator),
    skipReason: index === undefined ? (phase?.skipReason ?? 'no_data') : null,
    readingsUsed: index === undefined ? 0 : coverage.daysWithReading,
    breached: phase?.breached ?? false,
    severity: phase?.severity ?? NO_SEVERITY,
    severityPpm: severityPpmOfExact(phase?.severity ?? NO_SEVERITY),
  };
};

const seasonSpec = (terms: TriggerTerms, season: SeasonReadings) => ({
  cover: coverOfTrigger(terms, season.season),
  amounts: { unit: 'share' } as const,
  term: season.season,
  readings: season.readings,
});

/** What `isCompleteSeason` reads of a trigger: the trigger itself, read on each season as a cover. */
export const triggerLevels = (terms: TriggerTerms): TriggerTerms => terms;

/** Whether a past season may stand in the burning cost of the trigger. */
export const isCompleteSeason = (terms: TriggerTerms, season: SeasonReadings): boolean =>
  seasonShare(seasonSpec(terms, season)) !== undefined;

/** The deepest severity daily monitoring would have paid over a past season, in millionths. */
export const seasonSeverityPpm = (terms: TriggerTerms, season: SeasonReadings): number =>
  millionthsOfRational(deepestSeasonShare(seasonSpec(terms, season)));

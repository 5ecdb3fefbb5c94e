import type { Comparison, DataCoverage, PhaseEvaluated, PhaseEvaluation } from '@cropcover/contracts';
import { earlierDate } from '../insurance/calendar/calendar-date';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import { decimalOfMillionths } from '../insurance/money/decimal';
import { toMajorUnits } from '../insurance/money/minor-units';
import type { MoneyRounding } from '../insurance/money/payout';
import type { CoverOutcome, PhaseOutcome } from '../insurance/term-sheet/evaluate-cover';
import { minorUnitsOfShare } from '../insurance/term-sheet/sheet-money';
import { coverageOnTheWire } from './peril-assessment';
import type { PerilAssessor } from './peril-assessor';

// What an evaluated cover shows (TERM-SHEETS.md §2.4): its governing phase's figures in the fields the
// seed defines, and each phase beside them when it has several, so a single-phase cover's payloads are
// what they always were.

/** The figures of an evaluated cover: its governing phase's. */
export interface CoverFigures {
  readonly phase: string;
  readonly observedValue: number;
  readonly threshold: number;
  readonly comparison: Comparison;
  readonly coverage: DataCoverage;
  readonly readingsUsed: number;
  readonly windowStart: string;
  /** The last day evaluated: min(as of, the window's end). */
  readonly windowEnd: string;
}

const indexValueOf = (phase: PhaseOutcome): number | undefined =>
  phase.index === undefined ? undefined : decimalOfMillionths(phase.index.numerator, phase.index.denominator);

/** The governing phase's figures; undefined when the cover was skipped. */
export const coverFigures = (outcome: CoverOutcome, asOf: string): CoverFigures | undefined => {
  const { governing } = outcome;
  if (governing?.index === undefined || governing.payout === undefined || governing.window === undefined) {
    return undefined;
  }
  const coverage = governing.coverage!;
  return {
    phase: governing.phase.id,
    observedValue: indexValueOf(governing)!,
    threshold: decimalOfMillionths(governing.payout.trigger),
    comparison: governing.payout.direction === 'below' ? 'lte' : 'gte',
    coverage: coverageOnTheWire(coverage),
    readingsUsed: coverage.daysWithReading,
    windowStart: governing.window.start,
    windowEnd: earlierDate(asOf, governing.window.end),
  };
};

export interface PhaseMoney {
  readonly sumInsuredMinor: number;
  readonly rounding: MoneyRounding;
}

/** A phase as `TriggerEvaluated` records it, but for its amount due: the fields before and after it. */
interface PhaseFigures {
  readonly head: Omit<PhaseEvaluated, 'amount_due_minor'>;
  readonly tail: Partial<PhaseEvaluated>;
}

const phaseFiguresOf = (
  phase: PhaseOutcome,
  readings: readonly IndexObservation[],
  assessor: PerilAssessor,
): PhaseFigures => {
  const observed = indexValueOf(phase);
  const used =
    phase.readings === undefined
      ? undefined
      : assessor.readingsUsed('', readings, phase.readings.from, phase.readings.to);
  return {
    head: {
      phase: phase.phase.id,
      ...(phase.window === undefined ? {} : { window_start: phase.window.start, window_end: phase.window.end }),
      status: phase.status,
      ...(observed === undefined ? {} : { observed_value: observed }),
      ...(phase.payout === undefined ? {} : { trigger: decimalOfMillionths(phase.payout.trigger) }),
      ...(phase.payout?.exit === undefined ? {} : { exit: decimalOfMillionths(phase.payout.exit) }),
      breached: phase.breached,
    },
    tail: {
      ...(phase.coverage === undefined ? {} : { coverage: coverageOnTheWire(phase.coverage) }),
      ...(phase.skipReason === null ? {} : { skipped_reason: phase.skipReason }),
      ...(used === undefined
        ? {}
        : {
            readings_from: used.readings_from,
            readings_to: used.readings_to,
            readings_used: used.readings_used,
            digest: used.digest,
            files: used.files,
            origin_digest: used.origin_digest,
          }),
      ...(phase.sowingDate === undefined ? {} : { sowing_date: phase.sowingDate }),
    },
  };
};

/** The phases' figures of an outcome, by the outcome: a monitor pass hands every policy on the same
 *  readings one outcome (`sharedPerilAssessor`), and only the amounts depend on the policy. */
const keptFigures = new WeakMap<
  CoverOutcome,
  { readonly readings: readonly IndexObservation[]; readonly phases: readonly PhaseFigures[] }
>();

const figuresOfPhases = (
  outcome: CoverOutcome,
  readings: readonly IndexObservation[],
  assessor: PerilAssessor,
): readonly PhaseFigures[] => {
  const kept = keptFigures.get(outcome);
  if (kept !== undefined && kept.readings === readings) return kept.phases;
  const phases = outcome.phases.map((phase) => phaseFiguresOf(phase, readings, assessor));
  keptFigures.set(outcome, { readings, phases });
  return phases;
};

/** Each phase as `TriggerEvaluated` records it, with the readings it read; undefined for a single phase. */
export const phasesEvaluated = (
  outcome: CoverOutcome,
  money: PhaseMoney,
  readings: readonly IndexObservation[],
  assessor: PerilAssessor,
): PhaseEvaluated[] | undefined =>
  outcome.phases.length < 2
    ? undefined
    : figuresOfPhases(outcome, readings, assessor).map(({ head, tail }, at) => ({
        ...head,
        amount_due_minor: minorUnitsOfShare(outcome.phases[at]!.share, money.sumInsuredMinor, money.rounding),
        ...tail,
      }));

/** The phases as clients see them: each amount in major units of the policy's currency, without the
 *  provenance (which stays in the event). */
export const phasesForClients = (
  phases: readonly PhaseEvaluated[] | undefined,
  currency: string,
): PhaseEvaluation[] | undefined =>
  phases?.map(
    ({
      amount_due_minor,
      readings_from: _from,
      readings_to: _to,
      readings_used: _used,
      digest: _digest,
      files: _files,
      origin_digest: _origin,
      sowing_date: _sowing,
      ...phase
    }) => ({
      ...phase,
      amount_due: toMajorUnits(amount_due_minor, currency),
    }),
  );

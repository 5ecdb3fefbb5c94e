import type { Cover, FrozenClimatology, Phase, PhaseStatus, SheetAmounts, SkipReason } from '@cropcover/contracts';
import { dateOfDay, dayNumber, earlierDate, laterDate } from '../calendar/calendar-date';
import type { CoverTerm } from '../calendar/cover-term';
import type { DayValue } from '../index-data/index-observation';
import { divideRounded, MILLIONTHS, millionthsOf } from '../money/decimal';
import { type ExactSeverity, NO_SEVERITY } from '../money/severity';
import { percentileLevelsOn } from './climatology-blocks';
import {
  type CompiledPipeline,
  type Coverage,
  compilePipeline,
  type IndexReading,
  type IndexValue,
  isExtreme,
  type PhaseIndexer,
  phaseIndexer,
  type SeriesFrame,
} from './index-pipeline';
import { type CompiledPayout, compilePayout, directionOf, type ResolvedPayout, readsPercentiles } from './payout-map';
import { amountUnitsOf, NO_SHARE, type SumInsuredShare, unitsOfSumInsured } from './sheet-money';
import { sourcePeriodsIn } from './source-periods';
import { type DayWindow, isSowingAnchored, resolveWindow, type SowingDate, sowingDateAsOf } from './windows';

// The one evaluation of a cover (TERM-SHEETS.md §1.3 steps 1–8): live evaluation, the monitor, backtests,
// known loss and the burning cost all come here. What it gives is exact and independent of the sum
// insured — each phase's and the cover's share of it — so one evaluation serves every policy on the same
// readings, and the money is that share × the policy's sum insured, rounded once (step 9, sheet-money).

/** Completeness a phase asks for when its sheet names none (SPEC §7: 90% of the window's days). */
export const DEFAULT_MIN_COVERAGE = 0.9;

const minimumCoverages = new WeakMap<Phase, number>();

/** The phase's `min_coverage` in millionths (a number: days × 10^6 stays far inside the exact integers),
 *  read once per phase: the monitor asks it of every phase of every policy it evaluates. */
export const phaseMinimumCoverage = (phase: Phase): number => {
  let minimum = minimumCoverages.get(phase);
  if (minimum === undefined) {
    minimum = Number(millionthsOf(phase.min_coverage ?? DEFAULT_MIN_COVERAGE));
    minimumCoverages.set(phase, minimum);
  }
  return minimum;
};

export interface CoverEvaluationSpec {
  readonly cover: Cover;
  readonly amounts: SheetAmounts;
  /** The policy's term, or the season a backtest or the burning cost looks at. */
  readonly term: CoverTerm;
  /** The cover's readings (its one index, from its frozen source), one per day — or per period of a
   *  non-daily source, dated by its first day —, by day. */
  readonly readings: readonly DayValue[];
  /** The source's cadence and the climatology the blocks read against, as the policy froze them with its
   *  data source (or a quote would): a `PerilDataSource` is one. */
  readonly source?: SeriesFrame | undefined;
}

/** A phase as of a day. */
export interface PhaseOutcome {
  readonly phase: Phase;
  /** Its full window for the term; undefined while anchored on a sowing date not known yet. */
  readonly window: DayWindow | undefined;
  readonly status: PhaseStatus;
  readonly skipReason: SkipReason | null;
  /** Of the days read so far; undefined before the window began. */
  readonly coverage: Coverage | undefined;
  /** Exact; undefined unless the phase was evaluated (open or closed). */
  readonly index: IndexValue | undefined;
  /** The payout map on this window; undefined while the window is not known. */
  readonly payout: ResolvedPayout | undefined;
  /** At or beyond its trigger and settleable. */
  readonly breached: boolean;
  /** The fraction of its limit it is worth now (0 unless breached). */
  readonly severity: ExactSeverity;
  /** What it is worth now, as an exact share of the sum insured (A_p / SI). */
  readonly share: SumInsuredShare;
  /** The dates its index read; undefined before the window began. */
  readonly readings: { readonly from: string; readonly to: string } | undefined;
  /** The sowing date its window is anchored on, once known. */
  readonly sowingDate: string | undefined;
}

/** A cover as of a day: evaluated when any phase was, else skipped and why. */
export interface CoverOutcome {
  readonly phases: readonly PhaseOutcome[];
  readonly skipReason: SkipReason | null;
  /** The phase whose figures the cover shows: the one worth the most, the earlier on a tie; the latest
   *  evaluated when none is worth anything. Undefined when the cover was skipped. */
  readonly governing: PhaseOutcome | undefined;
  readonly breached: boolean;
  /** What the cover is worth, an exact share of the sum insured: min(cover limit, Σ phases) (step 8). */
  readonly share: SumInsuredShare;
  /** That as a fraction of the cover's limit, rounded half-up to millionths for display. */
  readonly severityPpm: number;
  /** The dates the cover read (its begun phases and its sowing), for its provenance. */
  readonly readings: { readonly from: string; readonly to: string } | undefined;
}

/** A phase's figures, read once per cover (a monitor pass or a quote evaluates the same cover thousands of
 *  times). */
interface PhasePlan {
  readonly phase: Phase;
  readonly anchored: boolean;
  readonly limitUnits: bigint;
  readonly extreme: boolean;
  /** In millionths: a number, since days × 10^6 stays far inside the exact integers. */
  readonly minimumCoverage: number;
  readonly pipeline: CompiledPipeline;
  /** Its window on a term and its payout map on that window; undefined while the window is not known. */
  readonly on: (term: CoverTerm, sowingDate: string | undefined) => PhaseOnTerm | undefined;
  /** Its payout map on a window with percentile levels at the location the climatology is of. */
  readonly payoutAt: (window: DayWindow, climatology: FrozenClimatology | undefined) => ResolvedPayout;
}

interface PhaseOnTerm {
  readonly window: DayWindow;
  /** Undefined when a level is a percentile: each location has its own (`payoutAt`). */
  readonly payout: ResolvedPayout | undefined;
}

/** A phase's window and payout map, kept for the last term (and sowing date) asked for: a monitor pass
 *  evaluates thousands of policies on a few terms, and resolving dates and levels cost as much as a
 *  phase's index. */
const phaseOnTerm = (phase: Phase, payout: CompiledPayout): PhasePlan['on'] => {
  const percentiles = readsPercentiles(phase.payout);
  let last: { readonly term: CoverTerm; readonly sowingDate: string | undefined; readonly on: PhaseOnTerm } | undefined;
  return (term, sowingDate) => {
    if (
      last !== undefined &&
      last.term.start === term.start &&
      last.term.end === term.end &&
      last.sowingDate === sowingDate
    ) {
      return last.on;
    }
    const window = resolveWindow(phase.window, term, sowingDate);
    if (window === undefined) return undefined;
    const resolved = percentiles ? undefined : payout.on(window.endDay - window.startDay + 1);
    last = { term, sowingDate, on: { window, payout: resolved } };
    return last.on;
  };
};

interface CoverPlan {
  readonly amounts: SheetAmounts;
  /** The sheet's units in the whole sum insured. */
  readonly units: bigint;
  readonly limit: SumInsuredShare;
  readonly phases: readonly PhasePlan[];
  /** Whether every phase is worth the most at its window's end (`growsOnly`). */
  readonly growsOnly: boolean;
}

const plans = new WeakMap<Cover, CoverPlan>();

const planOf = (cover: Cover, amounts: SheetAmounts): CoverPlan => {
  const known = plans.get(cover);
  if (known !== undefined && known.amounts === amounts) return known;
  const units = amountUnitsOf(amounts);
  const plan: CoverPlan = {
    amounts,
    units: unitsOfSumInsured(amounts),
    limit: { numerator: units(cover.limit), denominator: unitsOfSumInsured(amounts) },
    growsOnly: cover.phases.every(growsOnly),
    phases: cover.phases.map((phase) => {
      const limitUnits = units(phase.limit);
      const payout = compilePayout(phase.payout, limitUnits, units);
      return {
        phase,
        anchored: isSowingAnchored(phase.window),
        limitUnits,
        extreme: isExtreme(phase.aggregate),
        minimumCoverage: phaseMinimumCoverage(phase),
        pipeline: compilePipeline({
          reading: cover.reading,
          day: phase.day,
          blocks: phase.blocks,
          aggregate: phase.aggregate,
          paysWhen: directionOf(phase.payout),
        }),
        on: phaseOnTerm(phase, payout),
        payoutAt: (window, climatology) =>
          payout.on(
            window.endDay - window.startDay + 1,
            percentileLevelsOn(climatology, { first: window.startDay, last: window.endDay }),
          ),
      };
    }),
  };
  plans.set(cover, plan);
  return plan;
};

/** A phase on its window: how it reads, pays and settles. */
interface PhaseRun {
  readonly plan: PhasePlan;
  readonly window: DayWindow;
  readonly payout: ResolvedPayout;
  readonly indexer: PhaseIndexer;
  /** False when its window is anchored on a sowing read on too few days. */
  readonly sowingComplete: boolean;
  readonly sowingDate: string | undefined;
}

type PendingPhase = { readonly plan: PhasePlan; readonly window: undefined; readonly sowingDate: undefined };

const isKnown = (run: PhaseRun | PendingPhase): run is PhaseRun => run.window !== undefined;

const daysWithReadingIn = (readings: readonly DayValue[], startDay: number, endDay: number): number => {
  const position = (day: number) => {
    let low = 0;
    let high = readings.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (readings[middle]![0] < day) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  return position(endDay + 1) - position(startDay);
};

/** Whether a window was read on enough of its days: `minimumCoverage` in millionths. */
export const isCompleteEnough = (minimumCoverage: number, { daysWithReading, daysInWindow }: Coverage): boolean =>
  daysWithReading * Number(MILLIONTHS) >= minimumCoverage * daysInWindow;

/** Whether a sowing was read on enough of [from, sowing date] for a phase anchored on it (§2.5). */
const isSowingComplete = (spec: CoverEvaluationSpec, sowing: SowingDate, minimumCoverage: number): boolean => {
  if (sowing.date === undefined) return true;
  const sowingDay = dayNumber(sowing.date);
  return isCompleteEnough(minimumCoverage, {
    daysWithReading: daysWithReadingIn(spec.readings, sowing.range.startDay, sowingDay),
    daysInWindow: sowingDay - sowing.range.startDay + 1,
  });
};

const phaseRuns = (
  spec: CoverEvaluationSpec,
  plan: CoverPlan,
  sowing: SowingDate | undefined,
): readonly (PhaseRun | PendingPhase)[] =>
  plan.phases.map((phase): PhaseRun | PendingPhase => {
    const onTerm = phase.on(spec.term, sowing?.date);
    if (onTerm === undefined) return { plan: phase, window: undefined, sowingDate: undefined };
    const { window } = onTerm;
    const anchoredOn = phase.anchored ? sowing : undefined;
    return {
      plan: phase,
      window,
      payout: onTerm.payout ?? phase.payoutAt(window, spec.source?.climatology),
      indexer: phaseIndexer(phase.pipeline, window, spec.readings, spec.source),
      sowingComplete: anchoredOn === undefined || isSowingComplete(spec, anchoredOn, phase.minimumCoverage),
      sowingDate: anchoredOn?.date,
    };
  });

const isSettleable = (run: PhaseRun, asOfDay: number): boolean => {
  const settle = run.plan.phase.settle ?? 'any_time';
  if (settle === 'any_time') return true;
  if (settle === 'window_closed') return asOfDay >= run.window.endDay;
  return Math.min(asOfDay, run.window.endDay) - run.window.startDay + 1 >= settle.after_days;
};

/** The phase's worth as a share of the sum insured: limit × severity / units of the sum insured. */
const shareOf = (limitUnits: bigint, severity: ExactSeverity, sumInsuredUnits: bigint): SumInsuredShare =>
  severity.depth === 0n
    ? NO_SHARE
    : { numerator: limitUnits * severity.depth, denominator: severity.span * sumInsuredUnits };

/** Whether the phase has begun and its data is enough to evaluate it, as of the day its indexer reached. */
const judgedReading = (run: PhaseRun, reading: IndexReading | undefined): SkipReason | null => {
  if (reading === undefined || reading.daysWithReading === 0) return 'no_data';
  if ((!run.plan.extreme && !isCompleteEnough(run.plan.minimumCoverage, reading)) || !run.sowingComplete) {
    return 'incomplete_data';
  }
  return null;
};

/** The phase's share of the sum insured as of `asOfDay`, its indexer walked up to that day (steps 2–7). */
const shareOn = (run: PhaseRun | PendingPhase, asOfDay: number, units: bigint): SumInsuredShare => {
  // Settlement first: an indexer walks lazily, so days it is not read on cost nothing until it is.
  if (!isKnown(run) || asOfDay < run.window.startDay || !isSettleable(run, asOfDay)) return NO_SHARE;
  run.indexer.advanceTo(asOfDay);
  const reading = run.indexer.read();
  if (judgedReading(run, reading) !== null) return NO_SHARE;
  return shareOf(run.plan.limitUnits, run.payout.severityOf(reading!), units);
};

const addShares = (a: SumInsuredShare, b: SumInsuredShare): SumInsuredShare => {
  if (a.numerator === 0n) return b;
  if (b.numerator === 0n) return a;
  return {
    numerator: a.numerator * b.denominator + b.numerator * a.denominator,
    denominator: a.denominator * b.denominator,
  };
};

const compareShares = (a: SumInsuredShare, b: SumInsuredShare): number => {
  const difference = a.numerator * b.denominator - b.numerator * a.denominator;
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
};

/** min(cover limit, Σ phases), as a share of the sum insured (step 8). */
const coverShareOf = (plan: CoverPlan, shares: readonly SumInsuredShare[]): SumInsuredShare => {
  const total = shares.reduce(addShares, NO_SHARE);
  return compareShares(total, plan.limit) > 0 ? plan.limit : total;
};

/** The cover's share as a fraction of its limit, A_c ÷ (cover limit·M), rounded half-up to millionths. */
const coverSeverityPpm = (plan: CoverPlan, share: SumInsuredShare): number =>
  share.numerator === 0n
    ? 0
    : Number(
        divideRounded(share.numerator * MILLIONTHS * plan.limit.denominator, share.denominator * plan.limit.numerator),
      );

const sowingOf = (spec: CoverEvaluationSpec, asOfDay: number): SowingDate | undefined =>
  spec.cover.sowing === undefined ? undefined : sowingDateAsOf(spec.cover.sowing, spec.term, spec.readings, asOfDay);

/** A phase whose window has not begun as of the day, or is not known yet. */
const notOpen = (run: PhaseRun | PendingPhase): PhaseOutcome => ({
  phase: run.plan.phase,
  window: run.window,
  status: 'not_open',
  skipReason: null,
  coverage: undefined,
  index: undefined,
  payout: isKnown(run) ? run.payout : undefined,
  breached: false,
  severity: NO_SEVERITY,
  share: NO_SHARE,
  readings: undefined,
  sowingDate: run.sowingDate,
});

/** The phase as of `asOf`, day `asOfDay`. Built in one literal, no spread: a monitor pass builds one per
 *  phase of every policy. */
const phaseOutcome = (run: PhaseRun | PendingPhase, asOf: string, asOfDay: number, units: bigint): PhaseOutcome => {
  if (!isKnown(run) || asOfDay < run.window.startDay) return notOpen(run);
  run.indexer.advanceTo(asOfDay);
  const reading = run.indexer.read();
  const skipReason = judgedReading(run, reading);
  const value = skipReason === null ? { numerator: reading!.numerator, denominator: reading!.denominator } : undefined;
  const breached = value !== undefined && run.payout.crossedBy(value) && isSettleable(run, asOfDay);
  const severity = breached ? run.payout.severityOf(value) : NO_SEVERITY;
  return {
    phase: run.plan.phase,
    window: run.window,
    status: skipReason !== null ? 'skipped' : asOfDay >= run.window.endDay ? 'closed' : 'open',
    skipReason,
    coverage: reading && { daysWithReading: reading.daysWithReading, daysInWindow: reading.daysInWindow },
    index: value,
    payout: run.payout,
    breached,
    severity,
    share: shareOf(run.plan.limitUnits, severity, units),
    // Dates the window already has are taken as they are: a monitor pass formats thousands of them.
    readings: reading && {
      from: reading.readFromOffset === 0 ? run.window.start : dateOfDay(run.window.startDay + reading.readFromOffset),
      to: asOfDay >= run.window.endDay ? run.window.end : asOf,
    },
    sowingDate: run.sowingDate,
  };
};

/** Whether a phase was read on at least its `min_coverage` of the days it read so far. */
export const isPhaseComplete = (phase: PhaseOutcome): boolean =>
  phase.coverage !== undefined &&
  phase.coverage.daysWithReading > 0 &&
  isCompleteEnough(phaseMinimumCoverage(phase.phase), phase.coverage);

const coverSkipReason = (phases: readonly PhaseOutcome[]): SkipReason =>
  phases.every((phase) => phase.status === 'not_open')
    ? 'window_not_open'
    : phases.some((phase) => phase.skipReason === 'incomplete_data')
      ? 'incomplete_data'
      : 'no_data';

/** The phase the cover shows: the one worth the most, the earlier on a tie; the latest evaluated when none
 *  is worth anything. */
const governingOf = (phases: readonly PhaseOutcome[]): PhaseOutcome | undefined => {
  let best: PhaseOutcome | undefined;
  for (const phase of phases) {
    if (phase.index === undefined) continue;
    const worth = best === undefined ? 1 : compareShares(phase.share, best.share);
    if (worth > 0 || (worth === 0 && best!.share.numerator === 0n)) best = phase;
  }
  return best;
};

/** The dates the cover read: from the earliest its phases (and sowing) read to the latest. */
const readRange = (
  phases: readonly PhaseOutcome[],
  sowingRead: { readonly from: string; readonly to: string } | undefined,
): { readonly from: string; readonly to: string } | undefined => {
  let range = sowingRead;
  for (const { readings } of phases) {
    if (readings === undefined) continue;
    range =
      range === undefined
        ? readings
        : { from: earlierDate(range.from, readings.from), to: laterDate(range.to, readings.to) };
  }
  return range;
};

/** The cover as of `asOf` (a date): each phase on its window clipped to that day. */
export const evaluateCover = (spec: CoverEvaluationSpec, asOf: string): CoverOutcome => {
  const asOfDay = dayNumber(asOf);
  const plan = planOf(spec.cover, spec.amounts);
  const sowing = sowingOf(spec, asOfDay);
  const phases = phaseRuns(spec, plan, sowing).map((run) => phaseOutcome(run, asOf, asOfDay, plan.units));
  const governing = governingOf(phases);
  const share = coverShareOf(
    plan,
    phases.map((phase) => phase.share),
  );
  const sowingRead =
    sowing !== undefined && asOfDay >= sowing.range.startDay
      ? { from: sowing.range.start, to: earlierDate(asOf, sowing.date ?? sowing.range.end) }
      : undefined;
  return {
    phases,
    skipReason: governing !== undefined ? null : coverSkipReason(phases),
    governing,
    breached: phases.some((phase) => phase.breached),
    share,
    severityPpm: coverSeverityPpm(plan, share),
    readings: readRange(phases, sowingRead),
  };
};

/** A phase read at one index value: what its payout map makes of it on its window for the term. */
export interface PhaseAtIndex {
  readonly phase: Phase;
  /** The fraction of its limit it is worth. */
  readonly severity: ExactSeverity;
  /** What it is worth, as an exact share of the sum insured (A_p / SI). */
  readonly share: SumInsuredShare;
}

/** The cover read at one index value: its phases, and min(cover limit, Σ phases) of them (step 8). */
export interface CoverAtIndex {
  readonly phases: readonly PhaseAtIndex[];
  readonly share: SumInsuredShare;
  /** The cover's share as a fraction of its limit, rounded half-up to millionths for display. */
  readonly severityPpm: number;
}

export interface CoverAtIndexSpec {
  readonly cover: Cover;
  readonly amounts: SheetAmounts;
  /** The term the phases' windows resolve on: their `per_window_day` levels count its days. */
  readonly term: CoverTerm;
  /** The sowing date windows anchored on it resolve on. */
  readonly sowingDate: string | undefined;
  /** The phases read, by id; the others add nothing to the cover. */
  readonly phaseIds: ReadonlySet<string>;
  /** The climatology percentile levels are read in (a location's); without one such a level cannot be. */
  readonly climatology?: FrozenClimatology | undefined;
}

/** What the chosen phases of a cover pay if each reads `value` (the payout curve, TERM-SHEETS.md §5.1):
 *  steps 7 and 8 as an evaluation takes them, the same maps on the same windows, with readings,
 *  completeness and settlement left aside. */
export const coverAtIndex = (spec: CoverAtIndexSpec): ((value: IndexValue) => CoverAtIndex) => {
  const plan = planOf(spec.cover, spec.amounts);
  const read = plan.phases
    .filter((phase) => spec.phaseIds.has(phase.phase.id))
    .map((phase) => {
      const onTerm = phase.on(spec.term, spec.sowingDate);
      if (onTerm === undefined) throw new RangeError(`phase ${phase.phase.id} has no window without a sowing date`);
      return { phase, payout: onTerm.payout ?? phase.payoutAt(onTerm.window, spec.climatology) };
    });
  return (value) => {
    const phases = read.map(({ phase, payout }): PhaseAtIndex => {
      const severity = payout.severityOf(value);
      return { phase: phase.phase, severity, share: shareOf(phase.limitUnits, severity, plan.units) };
    });
    const share = coverShareOf(
      plan,
      phases.map((phase) => phase.share),
    );
    return { phases, share, severityPpm: coverSeverityPpm(plan, share) };
  };
};

const seasonRuns = (spec: CoverEvaluationSpec) => {
  const plan = planOf(spec.cover, spec.amounts);
  return { plan, runs: phaseRuns(spec, plan, sowingOf(spec, dayNumber(spec.term.end))) };
};

/** Whether a past season counts for the burning cost (TERM-SHEETS.md §2.7): every phase, and the sowing,
 *  read on at least their `min_coverage` of their full windows (days, or a non-daily source's periods) for
 *  the season, whatever the aggregate. */
const isComplete = (spec: CoverEvaluationSpec, runs: readonly (PhaseRun | PendingPhase)[]): boolean =>
  runs.every((run) => {
    if (!isKnown(run) || !run.sowingComplete) return false;
    // A non-daily source's readings are dated by their periods' first days: its periods are counted.
    const periods = sourcePeriodsIn(spec.source?.cadence, run.window);
    const coverage = {
      daysWithReading: daysWithReadingIn(spec.readings, run.window.startDay, run.window.endDay),
      daysInWindow: periods?.length ?? run.window.endDay - run.window.startDay + 1,
    };
    return coverage.daysWithReading > 0 && isCompleteEnough(run.plan.minimumCoverage, coverage);
  });

/** The most the cover was worth on any day of the season, as a share of the sum insured: what daily
 *  monitoring would have paid at most. When every phase is worth the most at its window's end
 *  (`growsOnly`) that is the season's end; else each day is looked at, the windows walked once. */
const deepestShare = (
  spec: CoverEvaluationSpec,
  plan: CoverPlan,
  runs: readonly (PhaseRun | PendingPhase)[],
): SumInsuredShare => {
  const endDay = dayNumber(spec.term.end);
  // A phase anchored on sowing is pending, and pays nothing, until the day the sowing was known.
  const sowingDays = runs.map((run) => (run.sowingDate === undefined ? undefined : dayNumber(run.sowingDate)));
  const coverShareOn = (day: number) => {
    const shares = runs.map((run, at) => (day < (sowingDays[at] ?? day) ? NO_SHARE : shareOn(run, day, plan.units)));
    return shares.every((share) => share.numerator === 0n) ? NO_SHARE : coverShareOf(plan, shares);
  };
  // One phase (every policy of the default product): its share alone, capped by the cover's limit.
  const [only] = runs;
  const shareOnlyOn =
    runs.length === 1 && only !== undefined && only.sowingDate === undefined
      ? (day: number) => {
          const share = shareOn(only, day, plan.units);
          return share.numerator === 0n || compareShares(share, plan.limit) <= 0 ? share : plan.limit;
        }
      : coverShareOn;
  if (plan.growsOnly) return shareOnlyOn(endDay);
  let deepest = NO_SHARE;
  for (let day = dayNumber(spec.term.start); day <= endDay; day += 1) {
    const share = shareOnlyOn(day);
    if (share.numerator !== 0n && compareShares(share, deepest) > 0) deepest = share;
  }
  return deepest;
};

/** What a past season says for the burning cost: the most the cover was worth on any day of it, as a
 *  share of the sum insured, when the season counts (every phase and the sowing read on at least their
 *  `min_coverage` of their full windows); undefined when it does not. */
export const seasonShare = (spec: CoverEvaluationSpec): SumInsuredShare | undefined => {
  const { plan, runs } = seasonRuns(spec);
  return isComplete(spec, runs) ? deepestShare(spec, plan, runs) : undefined;
};

/** The most the cover was worth on any day of a season, whether or not the season counts. */
export const deepestSeasonShare = (spec: CoverEvaluationSpec): SumInsuredShare => {
  const { plan, runs } = seasonRuns(spec);
  return deepestShare(spec, plan, runs);
};

/** Whether a phase is taken at its window's end for the burning cost: it settles only then, or its index
 *  accumulates as days are added (a sum, a running extreme, a run, a rolling extreme, blocks summed or
 *  taken at their extreme). A mean, a rolling last and a mean of blocks can recover, so those are looked
 *  at on every day. A sum is taken at the end whatever the sign of its days, as the burning cost always
 *  has (its history of prices stays the same). */
export const growsOnly = (phase: Phase): boolean => {
  if ((phase.settle ?? 'any_time') === 'window_closed') return true;
  const { aggregate, blocks } = phase;
  // Events and the last qualifying day only grow as days are added; a first day, once found, stays.
  if (typeof aggregate !== 'string') return !('rolling' in aggregate) || aggregate.rolling.pick !== 'last';
  if (aggregate === 'mean') return false;
  return blocks === undefined || (blocks.stat ?? 'sum') === 'sum';
};

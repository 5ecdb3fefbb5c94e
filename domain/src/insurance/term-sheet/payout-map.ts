import { type Level, type PayoutMap, payoutLevels, type StepRow } from '@cropcover/contracts';
import { MILLIONTHS, millionthsOf } from '../money/decimal';
import { type ExactSeverity, exactSeverity, NO_SEVERITY } from '../money/severity';
import type { IndexValue } from './index-pipeline';

// A phase's payout map (TERM-SHEETS.md §1.3 step 7): from its index to the fraction of its limit it pays,
// exactly. Amounts are in the sheet's units: millionths of the sum insured for `share`, minor units of the
// basis for `minor`.

/** A percentile of the phase's period at the policy's location, in millionths, by rank (INDEX-DATA §3). */
export type PercentileOf = (rank: number) => bigint;

/** A level in millionths of the index's unit: a number, that many per day of the phase's full window, or a
 *  percentile of the climatology the policy froze. */
export const levelOf = (level: Level, windowDays: number, percentileOf?: PercentileOf): bigint =>
  onWindow(levelUnitsOf(level), windowDays, percentileOf);

/** Whether a payout map has a level only a location's climatology gives. */
export const readsPercentiles = (payout: PayoutMap): boolean =>
  payoutLevels(payout).some(({ level }) => typeof level === 'object' && 'percentile' in level);

const absolute = (value: bigint): bigint => (value < 0n ? -value : value);

/** A step table pays below when its first row is open downwards, else above. */
export const stepsDirection = (steps: readonly StepRow[]): 'below' | 'above' =>
  steps[0]?.from === undefined ? 'below' : 'above';

export const directionOf = (payout: PayoutMap): 'below' | 'above' =>
  'linear' in payout
    ? payout.linear.direction
    : 'tick' in payout
      ? payout.tick.direction
      : stepsDirection(payout.steps);

/** A payout map with its levels resolved for one window. */
export interface ResolvedPayout {
  readonly direction: 'below' | 'above';
  /** Where it starts to pay (a step table: the edge of its paying rows), in millionths. */
  readonly trigger: bigint;
  /** Where a linear map pays its whole limit. */
  readonly exit: bigint | undefined;
  /** Whether the index is at or beyond the trigger (a step table: in a paying row). */
  crossedBy(value: IndexValue): boolean;
  /** The fraction of the phase's limit the index is worth, ignoring when it may settle. */
  severityOf(value: IndexValue): ExactSeverity;
}

const crossing = (direction: 'below' | 'above', trigger: bigint, { numerator, denominator }: IndexValue): boolean =>
  direction === 'below' ? numerator <= trigger * denominator : numerator >= trigger * denominator;

interface LevelUnits {
  readonly units: bigint;
  readonly perDay: boolean;
  /** A percentile's rank; its value is the location's. */
  readonly rank?: number;
}

/** A level read once: fixed, per day of the window, or a percentile. */
const levelUnitsOf = (level: Level): LevelUnits =>
  typeof level === 'number'
    ? { units: millionthsOf(level), perDay: false }
    : 'per_window_day' in level
      ? { units: millionthsOf(level.per_window_day), perDay: true }
      : { units: 0n, perDay: false, rank: level.percentile };

const onWindow = (level: LevelUnits, windowDays: number, percentileOf: PercentileOf | undefined): bigint => {
  if (level.rank !== undefined) {
    if (percentileOf === undefined) throw new RangeError('a percentile level needs the climatology the policy froze');
    return percentileOf(level.rank);
  }
  return level.perDay ? level.units * BigInt(windowDays) : level.units;
};

/** A payout map with its figures read once. */
export interface CompiledPayout {
  /** The map with its levels resolved for a window of so many days (and its percentiles at a location). */
  readonly on: (windowDays: number, percentileOf?: PercentileOf) => ResolvedPayout;
}

/** `amountUnits` turns a sheet amount (a limit, a per-unit, a step's pay) into the sheet's units. */
export const compilePayout = (
  payout: PayoutMap,
  limitUnits: bigint,
  amountUnits: (amount: number) => bigint,
): CompiledPayout => {
  if ('linear' in payout) {
    const { direction } = payout.linear;
    const [trigger, exit] = [levelUnitsOf(payout.linear.trigger), levelUnitsOf(payout.linear.exit)];
    return {
      on: (windowDays, percentileOf) =>
        linearMap(direction, onWindow(trigger, windowDays, percentileOf), onWindow(exit, windowDays, percentileOf)),
    };
  }
  if ('tick' in payout) {
    const { direction } = payout.tick;
    const trigger = levelUnitsOf(payout.tick.trigger);
    const perUnit = amountUnits(payout.tick.per_unit);
    return {
      on: (windowDays, percentileOf) =>
        tickMap(direction, onWindow(trigger, windowDays, percentileOf), perUnit, limitUnits),
    };
  }
  const map = stepMap(
    stepsDirection(payout.steps),
    payout.steps.map((row) => ({
      from: row.from === undefined ? undefined : millionthsOf(row.from),
      to: row.to === undefined ? undefined : millionthsOf(row.to),
      pay: amountUnits(row.pay),
    })),
    limitUnits,
  );
  return { on: () => map };
};

const linearMap = (direction: 'below' | 'above', trigger: bigint, exit: bigint): ResolvedPayout => ({
  direction,
  trigger,
  exit,
  crossedBy: (value) => crossing(direction, trigger, value),
  severityOf: (value) =>
    crossing(direction, trigger, value)
      ? exactSeverity(
          absolute(value.numerator - trigger * value.denominator),
          absolute((exit - trigger) * value.denominator),
        )
      : NO_SEVERITY,
});

/** min(limit, |I − t| × per unit) as a fraction of the limit; |I − t| is in millionths. */
const tickMap = (
  direction: 'below' | 'above',
  trigger: bigint,
  perUnit: bigint,
  limitUnits: bigint,
): ResolvedPayout => ({
  direction,
  trigger,
  exit: undefined,
  crossedBy: (value) => crossing(direction, trigger, value),
  severityOf: (value) =>
    crossing(direction, trigger, value)
      ? exactSeverity(
          absolute(value.numerator - trigger * value.denominator) * perUnit,
          value.denominator * MILLIONTHS * limitUnits,
        )
      : NO_SEVERITY,
});

interface StepUnits {
  readonly from: bigint | undefined;
  readonly to: bigint | undefined;
  readonly pay: bigint;
}

/** The row from ≤ I < to pays its amount, as a fraction of the limit. */
const stepMap = (direction: 'below' | 'above', rows: readonly StepUnits[], limitUnits: bigint): ResolvedPayout => {
  const rowOf = ({ numerator, denominator }: IndexValue) =>
    rows.find(
      (row) =>
        (row.from === undefined || numerator >= row.from * denominator) &&
        (row.to === undefined || numerator < row.to * denominator),
    );
  return {
    direction,
    trigger: (direction === 'below' ? rows.at(-1)?.to : rows[0]?.from) ?? 0n,
    exit: undefined,
    crossedBy: (value) => rowOf(value) !== undefined,
    severityOf: (value) => {
      const row = rowOf(value);
      return row === undefined ? NO_SEVERITY : exactSeverity(row.pay, limitUnits);
    },
  };
};

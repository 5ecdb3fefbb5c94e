import {
  type Blocks,
  type Cadence,
  type DayTransform,
  type FrozenClimatology,
  type IndexAggregate,
  READING_BOUNDS,
  type ReadingIndex,
} from '@cropcover/contracts';
import { longestPeriodDays } from '../../index-sources/cadence';
import type { DayValue } from '../index-data/index-observation';
import { divideRounded, MILLIONTHS, millionthsOf, smallerOf } from '../money/decimal';
import { climatologyFiguresOn } from './climatology-blocks';
import { type BlockSpan, blockSpansOf, type SpanDays, sourcePeriodsIn } from './source-periods';
import type { DayWindow } from './windows';

// A phase's index (TERM-SHEETS.md §1.3 steps 3–6): each day of its window — read, or filled with the
// reading's bound away from a payout — through the day transform, into blocks, aggregated. The window is
// walked a day at a time, so the index as of any day is there without reading the window again: a live
// evaluation walks to today, the burning cost walks a past season once and reads the index on every day.

/** An exact index value: numerator / denominator millionths of the index's unit, the denominator positive
 *  (a sum is n / 1; a mean of 7 days is n / 7). */
export interface IndexValue {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

/** How much of the window the readings cover (SPEC §7 Completeness). */
export interface Coverage {
  readonly daysWithReading: number;
  readonly daysInWindow: number;
}

/** The index of the days read so far (an exact value) and the coverage it stands on, in one object: the
 *  burning cost reads one on every day of 30 seasons. */
export interface IndexReading extends IndexValue, Coverage {
  /** Offset from the window's first day of the first day the index read (a rolling `last` reads its span). */
  readonly readFromOffset: number;
}

const ONE_DAY = MILLIONTHS;

/** The day transform as a function of a reading in millionths, and whether it is increasing. Every
 *  transform is monotone, so the pipeline's direction is known before any reading. */
const dayTransformOf = (
  day: DayTransform | undefined,
): { readonly apply: (value: bigint) => bigint; readonly increasing: boolean } => {
  if (day === undefined) return { apply: (value) => value, increasing: true };
  if ('cap' in day) {
    const cap = millionthsOf(day.cap);
    return { apply: (value) => smallerOf(value, cap), increasing: true };
  }
  if ('is' in day) {
    const level = millionthsOf(day.is.value);
    switch (day.is.op) {
      case 'lt':
        return { apply: (value) => (value < level ? ONE_DAY : 0n), increasing: false };
      case 'lte':
        return { apply: (value) => (value <= level ? ONE_DAY : 0n), increasing: false };
      case 'gt':
        return { apply: (value) => (value > level ? ONE_DAY : 0n), increasing: true };
      case 'gte':
        return { apply: (value) => (value >= level ? ONE_DAY : 0n), increasing: true };
    }
  }
  if ('below' in day.exceedance) {
    const level = millionthsOf(day.exceedance.below);
    return { apply: (value) => (value < level ? level - value : 0n), increasing: false };
  }
  const level = millionthsOf(day.exceedance.above);
  return { apply: (value) => (value > level ? value - level : 0n), increasing: true };
};

/** Whether an aggregate is an extreme, evaluated on the days present whatever their coverage. */
export const isExtreme = (aggregate: IndexAggregate): boolean =>
  aggregate === 'max' ||
  aggregate === 'min' ||
  (typeof aggregate !== 'string' && 'rolling' in aggregate && aggregate.rolling.pick !== 'last');

/** Whether the aggregate falls as day values rise: only the first qualifying day (an earlier event). */
const isDecreasing = (aggregate: IndexAggregate): boolean => typeof aggregate !== 'string' && 'first_day' in aggregate;

/** An aggregate of a window walked a stretch of days at a time: `consume` takes in the days at offsets
 *  [from, to) of the window's values (filled where missing) and whether each was read. One tight loop per
 *  kind, so the daily walk of a season costs a few nanoseconds a day. */
interface Aggregator {
  consume(values: readonly bigint[], read: Uint8Array, from: number, to: number): void;
  /** The aggregate of the days consumed, and the coverage it stands on (`days` of the window, `present`
   *  of them read). */
  read(days: number, present: number): IndexReading;
}

const lessThan = (a: IndexValue, b: IndexValue): boolean => a.numerator * b.denominator < b.numerator * a.denominator;

const whole = (numerator: bigint, denominator: bigint, days: number, present: number): IndexReading => ({
  numerator,
  denominator,
  daysWithReading: present,
  daysInWindow: days,
  readFromOffset: 0,
});

class DaySum implements Aggregator {
  private total = 0n;
  constructor(private readonly mean: boolean) {}
  consume(values: readonly bigint[], _read: Uint8Array, from: number, to: number): void {
    let total = this.total;
    for (let at = from; at < to; at += 1) total += values[at]!;
    this.total = total;
  }
  read(days: number, present: number): IndexReading {
    return whole(this.total, this.mean ? BigInt(days) : 1n, days, present);
  }
}

class DayExtreme implements Aggregator {
  private best: bigint | undefined;
  constructor(private readonly highest: boolean) {}
  consume(values: readonly bigint[], _read: Uint8Array, from: number, to: number): void {
    let best = this.best ?? values[from];
    for (let at = from; at < to; at += 1) {
      const value = values[at]!;
      if (this.highest ? value > best! : value < best!) best = value;
    }
    this.best = best;
  }
  read(days: number, present: number): IndexReading {
    return whole(this.best ?? 0n, 1n, days, present);
  }
}

/** The longest run of days the predicate held (a day transform `is` gives 1 or 0). */
class LongestRun implements Aggregator {
  private run = 0;
  private longest = 0;
  consume(values: readonly bigint[], _read: Uint8Array, from: number, to: number): void {
    for (let at = from; at < to; at += 1) {
      this.run = values[at]! > 0n ? this.run + 1 : 0;
      if (this.run > this.longest) this.longest = this.run;
    }
  }
  read(days: number, present: number): IndexReading {
    return whole(BigInt(this.longest) * ONE_DAY, 1n, days, present);
  }
}

/** Events of at least `minDays` qualifying days in a row, no day counted twice: Σ over the maximal runs
 *  of qualifying days of ⌊run ÷ minDays⌋ (TERM-SHEETS.md §5, RWBCIS "N-day events"). */
class RunEvents implements Aggregator {
  private run = 0;
  private completed = 0;
  constructor(private readonly minDays: number) {}
  consume(values: readonly bigint[], _read: Uint8Array, from: number, to: number): void {
    for (let at = from; at < to; at += 1) {
      if (values[at]! > 0n) {
        this.run += 1;
      } else {
        this.completed += Math.floor(this.run / this.minDays);
        this.run = 0;
      }
    }
  }
  read(days: number, present: number): IndexReading {
    const events = this.completed + Math.floor(this.run / this.minDays);
    return whole(BigInt(events) * ONE_DAY, 1n, days, present);
  }
}

/** Events of `days` days totalling at least a level, scanned from the window's first day: a day starts an
 *  event when the `days` days from it reach the level — counted, and the scan goes on after them — else
 *  the scan goes on from the next day (Climate Corp's "two days totalling more than ½ inch"). */
class TotalEvents implements Aggregator {
  private spanSum = 0n;
  /** The first offset an event may start on: the day after the last event counted. */
  private next = 0;
  private events = 0;
  private readonly level: bigint;
  constructor(private readonly span: { readonly days: number; readonly total_at_least: number }) {
    this.level = millionthsOf(span.total_at_least);
  }
  consume(values: readonly bigint[], _read: Uint8Array, from: number, to: number): void {
    const { days } = this.span;
    for (let at = from; at < to; at += 1) {
      if (at >= days) this.spanSum -= values[at - days]!;
      this.spanSum += values[at]!;
      if (at - days + 1 >= this.next && this.spanSum >= this.level) {
        this.events += 1;
        this.next = at + 1;
      }
    }
  }
  read(days: number, present: number): IndexReading {
    return whole(BigInt(this.events) * ONE_DAY, 1n, days, present);
  }
}

/** The day number in the window (1 = its first day) of the first or the last qualifying day; 0 when none
 *  qualified (the date of a spring freeze, a blossom's rain). */
class EventDay implements Aggregator {
  private day = 0;
  constructor(private readonly first: boolean) {}
  consume(values: readonly bigint[], _read: Uint8Array, from: number, to: number): void {
    for (let at = from; at < to; at += 1) {
      if (values[at]! <= 0n || (this.first && this.day !== 0)) continue;
      this.day = at + 1;
    }
  }
  read(days: number, present: number): IndexReading {
    return whole(BigInt(this.day) * ONE_DAY, 1n, days, present);
  }
}

/** Spans of `days` days ending on each day of the window, clipped to it: the last one, or the highest or
 *  lowest sum or mean of them. */
class Rolling implements Aggregator {
  private spanSum = 0n;
  private spanPresent = 0;
  private bestNumerator: bigint | undefined;
  private bestDenominator = 1n;
  constructor(
    private readonly rolling: {
      readonly days: number;
      readonly stat: 'sum' | 'mean';
      readonly pick: 'max' | 'min' | 'last';
    },
  ) {}
  consume(values: readonly bigint[], read: Uint8Array, from: number, to: number): void {
    const { days, stat, pick } = this.rolling;
    for (let at = from; at < to; at += 1) {
      if (at >= days) {
        this.spanSum -= values[at - days]!;
        this.spanPresent -= read[at - days]!;
      }
      this.spanSum += values[at]!;
      this.spanPresent += read[at]!;
      if (pick === 'last') continue;
      // A sum's spans compare as they are; a mean's by cross products, the first spans being shorter.
      const length = stat === 'mean' ? BigInt(Math.min(at + 1, days)) : 1n;
      const best = this.bestNumerator;
      const left = best === undefined ? 0n : this.spanSum * this.bestDenominator;
      const right = best === undefined ? 0n : best * length;
      if (best === undefined || (pick === 'max' ? left > right : left < right)) {
        this.bestNumerator = this.spanSum;
        this.bestDenominator = length;
      }
    }
  }
  read(days: number, present: number): IndexReading {
    if (this.rolling.pick !== 'last') return whole(this.bestNumerator ?? 0n, this.bestDenominator, days, present);
    const length = Math.min(days, this.rolling.days);
    return {
      numerator: this.spanSum,
      denominator: this.rolling.stat === 'mean' ? BigInt(length) : 1n,
      daysWithReading: this.spanPresent,
      daysInWindow: length,
      readFromOffset: days - length,
    };
  }
}

/** An exact block value in millionths, kept in lowest terms so a season of blocks adds up cheaply. */
interface Fraction {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

const greatestCommonDivisor = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a < 0n ? -a : a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

const fraction = (numerator: bigint, denominator: bigint): Fraction => {
  const divisor = greatestCommonDivisor(numerator, denominator);
  return divisor <= 1n
    ? { numerator, denominator }
    : { numerator: numerator / divisor, denominator: denominator / divisor };
};

const plus = (a: Fraction, b: Fraction): Fraction =>
  a.denominator === 1n && b.denominator === 1n
    ? { numerator: a.numerator + b.numerator, denominator: 1n }
    : fraction(a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator);

/** A block table's figures in millionths, read once. */
interface BlockFigures {
  readonly mean: boolean;
  readonly vsNormal:
    | {
        readonly as: 'percent' | 'difference' | 'z';
        readonly normal: readonly bigint[];
        readonly sd: readonly bigint[];
        /** Read per window from the climatology the policy froze, not listed in the sheet. */
        readonly ofClimatology: boolean;
      }
    | undefined;
  readonly cap: bigint | undefined;
  readonly weights: readonly bigint[] | undefined;
  /** 10^(6 − round): the declared rounding's step in millionths. */
  readonly roundStep: bigint | undefined;
  /** The blocks on a window and the source's periods in it (`blockSpansOf`), and the offsets of their ends. */
  readonly spansOn: (window: DayWindow, periods: readonly SpanDays[] | undefined) => BlocksOnWindow;
}

/** The blocks of a window, at most `listed` (the figures the sheet lists per block): a window anchored on
 *  the term with an offset can gain a day in a season shifted across a 29 February (TERM-SHEETS.md §1.3),
 *  and that day joins the last block the sheet has figures for rather than start one it has none for. */
const blockSpansListed = (
  by: Blocks['by'],
  window: DayWindow,
  periods: readonly SpanDays[] | undefined,
  listed: number | undefined,
): readonly BlockSpan[] => {
  const spans = blockSpansOf(by, window, periods);
  if (listed === undefined || spans.length <= listed) return spans;
  const last = spans.at(-1)!;
  return [
    ...spans.slice(0, listed - 1),
    { first: spans[listed - 1]!.first, last: last.last, endOffset: last.endOffset },
  ];
};

interface BlocksOnWindow {
  readonly spans: readonly BlockSpan[];
  readonly ends: readonly number[];
}

/** `blockSpansListed`, kept for the last window asked for: every policy on a product reads the same phase
 *  windows in a season, so a monitor pass or a quote finds a phase's blocks once, not once per policy. */
const blockSpansOn = (by: Blocks['by'], listed: number | undefined): BlockFigures['spansOn'] => {
  let last:
    | {
        readonly startDay: number;
        readonly endDay: number;
        readonly periods: readonly SpanDays[] | undefined;
        readonly blocks: BlocksOnWindow;
      }
    | undefined;
  return (window, periods) => {
    if (
      last === undefined ||
      last.startDay !== window.startDay ||
      last.endDay !== window.endDay ||
      last.periods !== periods
    ) {
      const spans = blockSpansListed(by, window, periods, listed);
      last = {
        startDay: window.startDay,
        endDay: window.endDay,
        periods,
        blocks: { spans, ends: spans.map((span) => span.endOffset) },
      };
    }
    return last.blocks;
  };
};

/** How many blocks the sheet lists figures for (its shortest list), if it lists any. */
const listedBlocks = (blocks: Blocks): number | undefined => {
  const listed = blocks.vs_normal !== undefined && 'normal' in blocks.vs_normal ? blocks.vs_normal : undefined;
  const lengths = [listed?.normal, listed?.sd, blocks.weights].flatMap((list) =>
    list === undefined ? [] : [list.length],
  );
  return lengths.length === 0 ? undefined : Math.min(...lengths);
};

const blockFiguresOf = (blocks: Blocks): BlockFigures => ({
  mean: blocks.stat === 'mean',
  vsNormal:
    blocks.vs_normal === undefined
      ? undefined
      : 'normal' in blocks.vs_normal
        ? {
            as: blocks.vs_normal.as,
            normal: blocks.vs_normal.normal.map(millionthsOf),
            sd: (blocks.vs_normal.sd ?? []).map(millionthsOf),
            ofClimatology: false,
          }
        : { as: blocks.vs_normal.as, normal: [], sd: [], ofClimatology: true },
  cap: blocks.cap === undefined ? undefined : millionthsOf(blocks.cap),
  weights: blocks.weights?.map(millionthsOf),
  roundStep: blocks.round === undefined ? undefined : 10n ** BigInt(6 - blocks.round),
  spansOn: blockSpansOn(blocks.by, listedBlocks(blocks)),
});

const figureAt = (figures: readonly bigint[] | undefined, block: number, what: string): bigint => {
  const figure = figures?.[block];
  if (figure === undefined) throw new RangeError(`no ${what} for block ${block + 1}`);
  return figure;
};

/** The value of one block from its days (stat → vs normal → cap → × weight → declared rounding). */
const blockValue = (blocks: BlockFigures, block: number, sum: bigint, days: number): Fraction => {
  let value = blocks.mean ? fraction(sum, BigInt(days)) : { numerator: sum, denominator: 1n };
  const normal = blocks.vsNormal;
  if (normal !== undefined) {
    const level = figureAt(normal.normal, block, 'normal');
    const difference = value.numerator - level * value.denominator;
    if (normal.as === 'percent') value = fraction(value.numerator * 100n * MILLIONTHS, value.denominator * level);
    else if (normal.as === 'difference') value = fraction(difference, value.denominator);
    else value = fraction(difference * MILLIONTHS, value.denominator * figureAt(normal.sd, block, 'sd'));
  }
  if (blocks.cap !== undefined && value.numerator > blocks.cap * value.denominator) {
    value = { numerator: blocks.cap, denominator: 1n };
  }
  if (blocks.weights !== undefined) {
    value = fraction(value.numerator * figureAt(blocks.weights, block, 'weight'), value.denominator * MILLIONTHS);
  }
  if (blocks.roundStep !== undefined) {
    const step = blocks.roundStep;
    value = { numerator: divideRounded(value.numerator, value.denominator * step) * step, denominator: 1n };
  }
  return value;
};

/** Blocks of the window (dekads, months, n days), each valued from its days so far, aggregated. */
class BlockAggregate implements Aggregator {
  private block = 0;
  /** The offset of the current block's first day, and the sum of its days consumed so far. */
  private blockStart = 0;
  private blockSum = 0n;
  private completedTotal: Fraction = { numerator: 0n, denominator: 1n };
  private completedBest: Fraction | undefined;
  /** Whether the blocks are aggregated by their extreme (else by their sum or mean). */
  private readonly extreme: boolean;
  constructor(
    private readonly blocks: BlockFigures,
    private readonly ends: readonly number[],
    private readonly aggregate: 'sum' | 'mean' | 'max' | 'min',
  ) {
    this.extreme = aggregate === 'max' || aggregate === 'min';
  }
  private better(a: Fraction | undefined, b: Fraction): Fraction {
    if (a === undefined) return b;
    return (this.aggregate === 'max' ? lessThan(a, b) : lessThan(b, a)) ? b : a;
  }
  consume(values: readonly bigint[], _read: Uint8Array, from: number, to: number): void {
    let sum = this.blockSum;
    let end = this.ends[this.block]!;
    for (let at = from; at < to; at += 1) {
      sum += values[at]!;
      if (at < end) continue;
      const done = blockValue(this.blocks, this.block, sum, end + 1 - this.blockStart);
      if (this.extreme) this.completedBest = this.better(this.completedBest, done);
      else this.completedTotal = plus(this.completedTotal, done);
      this.block += 1;
      this.blockStart = end + 1;
      // The last block's end is the window's: no day comes after it.
      if (this.block < this.ends.length) end = this.ends[this.block]!;
      sum = 0n;
    }
    this.blockSum = sum;
  }
  read(days: number, present: number): IndexReading {
    const blockDays = days - this.blockStart;
    const partial = blockDays > 0 ? blockValue(this.blocks, this.block, this.blockSum, blockDays) : undefined;
    const count = this.block + (partial === undefined ? 0 : 1);
    let value: Fraction;
    if (this.aggregate === 'sum' || this.aggregate === 'mean') {
      const total = partial === undefined ? this.completedTotal : plus(this.completedTotal, partial);
      value =
        this.aggregate === 'mean' ? fraction(total.numerator, total.denominator * BigInt(Math.max(count, 1))) : total;
    } else {
      value = (partial === undefined ? this.completedBest : this.better(this.completedBest, partial)) ?? {
        numerator: 0n,
        denominator: 1n,
      };
    }
    return whole(value.numerator, value.denominator, days, present);
  }
}

/** The block figures on a window: a climatology's normals are those of the periods the blocks are. */
const figuresOn = (
  blocks: BlockFigures,
  spans: readonly BlockSpan[],
  climatology: FrozenClimatology | undefined,
): BlockFigures => {
  if (blocks.vsNormal?.ofClimatology !== true) return blocks;
  if (climatology === undefined) throw new RangeError('blocks read against a climatology the policy has not frozen');
  return { ...blocks, vsNormal: { ...blocks.vsNormal, ...climatologyFiguresOn(climatology, spans) } };
};

const aggregatorOf = (
  aggregate: IndexAggregate,
  blocks: BlockFigures | undefined,
  window: DayWindow,
  periods: readonly SpanDays[] | undefined,
  climatology: FrozenClimatology | undefined,
): Aggregator => {
  if (blocks !== undefined) {
    if (typeof aggregate !== 'string' || aggregate === 'longest_run') {
      throw new RangeError('blocks are aggregated by sum, mean, max or min');
    }
    const { spans, ends } = blocks.spansOn(window, periods);
    return new BlockAggregate(figuresOn(blocks, spans, climatology), ends, aggregate);
  }
  if (typeof aggregate !== 'string') {
    if ('rolling' in aggregate) return new Rolling(aggregate.rolling);
    if ('first_day' in aggregate) return new EventDay(true);
    if ('last_day' in aggregate) return new EventDay(false);
    return 'min_days' in aggregate.events
      ? new RunEvents(aggregate.events.min_days)
      : new TotalEvents(aggregate.events);
  }
  switch (aggregate) {
    case 'sum':
    case 'mean':
      return new DaySum(aggregate === 'mean');
    case 'max':
    case 'min':
      return new DayExtreme(aggregate === 'max');
    case 'longest_run':
      return new LongestRun();
  }
};

/** What a phase's index is made of. */
export interface IndexPipeline {
  readonly reading: ReadingIndex;
  readonly day?: DayTransform | undefined;
  readonly blocks?: Blocks | undefined;
  readonly aggregate: IndexAggregate;
  /** Which way the phase pays: a missing day is filled to push the index the other way. */
  readonly paysWhen: 'below' | 'above';
}

/** A pipeline with its figures read once: what every window of the phase walks with. */
export interface CompiledPipeline {
  /** The day transform; undefined when the phase has none. */
  readonly transform: ((value: bigint) => bigint) | undefined;
  /** What a day without a reading counts as, transformed. */
  readonly fill: bigint;
  /** What a period without a reading counts as, transformed, for periods of at most `days` days. */
  readonly periodFill: (days: number) => bigint;
  readonly aggregate: IndexAggregate;
  readonly blocks: BlockFigures | undefined;
}

/** Rain is a sum over the days of a period (INDEX-DATA §1: `mm` per period-day): a missing dekad is
 *  filled with as much as ten days may hold. Other readings are one value per period whatever its length. */
const SUMMED_OVER_PERIOD_DAYS: ReadonlySet<ReadingIndex> = new Set(['rainfall_mm']);

/** A day without a reading takes the reading's bound away from a payout, through the day transform
 *  (TERM-SHEETS.md §1.3 step 5): a gap can hide a payout, never make one. */
export const compilePipeline = (pipeline: IndexPipeline): CompiledPipeline => {
  const transform = dayTransformOf(pipeline.day);
  const bounds = READING_BOUNDS[pipeline.reading];
  // Index up with the readings and paying below: the upper bound; the other way round the lower one. The
  // first qualifying day falls as days qualify: a gap counts as qualifying, the event earlier.
  const indexIncreasing = transform.increasing !== isDecreasing(pipeline.aggregate);
  const fillWithMaximum = (pipeline.paysWhen === 'below') === indexIncreasing;
  const bound = millionthsOf(fillWithMaximum ? bounds.max : bounds.min);
  const summed = SUMMED_OVER_PERIOD_DAYS.has(pipeline.reading);
  return {
    transform: pipeline.day === undefined ? undefined : transform.apply,
    fill: transform.apply(bound),
    periodFill: (days) => transform.apply(summed ? bound * BigInt(days) : bound),
    aggregate: pipeline.aggregate,
    blocks: pipeline.blocks === undefined ? undefined : blockFiguresOf(pipeline.blocks),
  };
};

/** The index of one phase over its window, walked a day at a time from the window's first day. */
export interface PhaseIndexer {
  /** Takes in every day up to `day` (clipped to the window); days only move forward. */
  advanceTo(day: number): void;
  /** The index of the days taken in so far; undefined before the first. */
  read(): IndexReading | undefined;
}

/** What a phase's readings are, beside their values: the cadence they come in and the climatology the
 *  blocks read against, as the policy froze them with its data source (or a quote would). */
export interface SeriesFrame {
  readonly cadence?: Cadence | null | undefined;
  readonly climatology?: FrozenClimatology | undefined;
}

/** The position of the first reading on or after `day`. */
const firstReadingFrom = (readings: readonly DayValue[], day: number): number => {
  let low = 0;
  let high = readings.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (readings[middle]![0] < day) low = middle + 1;
    else high = middle;
  }
  return low;
};

/** Walks `window` over `readings` (one per day, by day; any range) — or, for a non-daily source, over the
 *  periods that start in it — its blocks against the frame's climatology when they read one. */
export const phaseIndexer = (
  pipeline: CompiledPipeline,
  window: DayWindow,
  readings: readonly DayValue[],
  frame: SeriesFrame = {},
): PhaseIndexer => {
  const periods = sourcePeriodsIn(frame.cadence, window);
  if (periods !== undefined) return periodIndexer(pipeline, window, periods, readings, frame);
  const { transform, fill } = pipeline;
  const aggregator = aggregatorOf(pipeline.aggregate, pipeline.blocks, window, undefined, frame.climatology);
  const length = window.endDay - window.startDay + 1;
  const values = new Array<bigint>(length);
  const read = new Uint8Array(length);
  let next = firstReadingFrom(readings, window.startDay);
  // Offsets of the window taken in so far, and how many of them had a reading.
  let taken = 0;
  let present = 0;
  return {
    advanceTo: (until) => {
      const last = Math.min(until, window.endDay) - window.startDay + 1;
      if (last <= taken) return;
      for (let at = taken; at < last; at += 1) {
        const reading = readings[next];
        if (reading !== undefined && reading[0] === window.startDay + at) {
          values[at] = transform === undefined ? reading[1] : transform(reading[1]);
          read[at] = 1;
          present += 1;
          next += 1;
        } else {
          values[at] = fill;
        }
      }
      aggregator.consume(values, read, taken, last);
      taken = last;
    },
    read: () => (taken === 0 ? undefined : aggregator.read(taken, present)),
  };
};

/** The window's periods walked as a daily window's days are: a period is taken in on its first day, read
 *  when a reading is dated that day; counts of days (completeness, runs, rolling spans, day numbers) count
 *  periods. The offset the index read from is given back in days. */
const periodIndexer = (
  pipeline: CompiledPipeline,
  window: DayWindow,
  periods: readonly SpanDays[],
  readings: readonly DayValue[],
  frame: SeriesFrame,
): PhaseIndexer => {
  const { transform } = pipeline;
  const fill = pipeline.periodFill(longestPeriodDays(frame.cadence!));
  const aggregator = aggregatorOf(pipeline.aggregate, pipeline.blocks, window, periods, frame.climatology);
  const values = new Array<bigint>(periods.length);
  const read = new Uint8Array(periods.length);
  let next = firstReadingFrom(readings, window.startDay);
  let taken = 0;
  let present = 0;
  return {
    advanceTo: (until) => {
      let last = taken;
      while (last < periods.length && periods[last]!.first <= until) last += 1;
      if (last <= taken) return;
      for (let at = taken; at < last; at += 1) {
        const { first } = periods[at]!;
        while (next < readings.length && readings[next]![0] < first) next += 1;
        const reading = readings[next];
        if (reading !== undefined && reading[0] === first) {
          values[at] = transform === undefined ? reading[1] : transform(reading[1]);
          read[at] = 1;
          present += 1;
          next += 1;
        } else {
          values[at] = fill;
        }
      }
      aggregator.consume(values, read, taken, last);
      taken = last;
    },
    read: () => {
      if (taken === 0) return undefined;
      const reading = aggregator.read(taken, present);
      return reading.readFromOffset === 0
        ? reading
        : { ...reading, readFromOffset: periods[reading.readFromOffset]!.first - window.startDay };
    },
  };
};

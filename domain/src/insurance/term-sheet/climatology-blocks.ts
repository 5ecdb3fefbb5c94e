import {
  type Cadence,
  type ClimatologyNormal,
  type ClimatologyReference,
  type Cover,
  type FrozenClimatology,
  type Phase,
  type ProblemCode,
  payoutLevels,
} from '@cropcover/contracts';
import { DomainError } from '../../domain-error';
import { periodsOfYear } from '../../index-sources/climatologies/climatology-periods';
import { civilOfDay, dateOfDay } from '../calendar/calendar-date';
import type { CoverTerm } from '../calendar/cover-term';
import { millionthsOf } from '../money/decimal';
import { compilePayout, type PercentileOf, readsPercentiles } from './payout-map';
import { blockSpansOf, type SpanDays, sourcePeriodsIn } from './source-periods';
import { isSowingAnchored, resolveWindow } from './windows';

// Blocks read against a climatology (TERM-SHEETS.md §5, INDEX-DATA §3): each block's normal and standard
// deviation are those of the climatology period it is, in the year it starts, from the numbers the policy
// froze at issue.

/** The climatologies a phase names: its blocks' normals, its percentile levels'. */
export const phaseClimatologies = (phase: Phase): ClimatologyReference[] => [
  ...(phase.blocks?.vs_normal !== undefined && 'climatology' in phase.blocks.vs_normal
    ? [phase.blocks.vs_normal.climatology]
    : []),
  ...payoutLevels(phase.payout).flatMap(({ level }) =>
    typeof level === 'object' && 'percentile' in level && level.climatology !== undefined ? [level.climatology] : [],
  ),
];

/** The climatology a cover reads, if any (validation holds a cover to one). */
export const coverClimatology = (cover: Cover): ClimatologyReference | undefined => {
  for (const phase of cover.phases) {
    const [named] = phaseClimatologies(phase);
    if (named !== undefined) return named;
  }
  return undefined;
};

/** The period a block is: the one with its first and last days (a window period wrapping the year end
 *  starts the year before); else the one holding its first day, when `exact` is not asked. */
const periodOfBlock = (climatology: FrozenClimatology, block: SpanDays, exact: boolean): number | undefined => {
  const year = civilOfDay(block.first).year;
  const periods = [...periodsOfYear(climatology.period, year - 1), ...periodsOfYear(climatology.period, year)];
  const same = periods.find((period) => period.first === block.first && period.last === block.last);
  if (same !== undefined || exact) return same?.period;
  return periods.find((period) => period.first <= block.first && block.first <= period.last)?.period;
};

const normalOf = (climatology: FrozenClimatology, period: number | undefined): ClimatologyNormal | undefined =>
  climatology.normals.find((normal) => normal.period === period && normal.mean !== null);

/** The normal and standard deviation of each block, in millionths. A season other than the policy's (a
 *  backtest, the burning cost) may cut a block a day off its period across a 29 February: it takes the
 *  period holding its first day. */
export const climatologyFiguresOn = (
  climatology: FrozenClimatology,
  blocks: readonly SpanDays[],
): { readonly normal: bigint[]; readonly sd: bigint[] } => {
  const normal: bigint[] = [];
  const sd: bigint[] = [];
  for (const block of blocks) {
    const found = normalOf(climatology, periodOfBlock(climatology, block, false));
    if (found === undefined) {
      throw new RangeError(`no normal in climatology ${climatology.name} for the block from ${dateOfDay(block.first)}`);
    }
    normal.push(millionthsOf(found.mean!));
    sd.push(millionthsOf(found.sd ?? 0));
  }
  return { normal, sd };
};

/** The percentiles of the period a phase's window is, at the frozen location: the period with its first and
 *  last days (`exact`), else — another season cut a day off it across a 29 February — the one holding its
 *  first day; undefined when the location has none for it. */
const percentilesOf = (
  climatology: FrozenClimatology,
  window: SpanDays,
  exact: boolean,
): Readonly<Record<string, number>> | undefined =>
  climatology.normals.find((normal) => normal.period === periodOfBlock(climatology, window, exact))?.percentiles ??
  undefined;

/** A phase's percentile levels on a window, from the climatology the policy froze. */
export const percentileLevelsOn =
  (climatology: FrozenClimatology | undefined, window: SpanDays): PercentileOf =>
  (rank) => {
    const value = climatology === undefined ? undefined : percentilesOf(climatology, window, false)?.[`p${rank}`];
    if (value === undefined)
      throw new RangeError(`no percentile ${rank} for the window from ${dateOfDay(window.first)}`);
    return millionthsOf(value);
  };

const refused = (code: ProblemCode, detail: string, location: string): DomainError =>
  new DomainError('rejected', code, detail, [{ path: 'location', message: detail, location }]);

/**
 * What quote and issue check of a cover read against a climatology, on the policy's term: each block is
 * one period of it, summed or averaged as it was, and the location has a usable normal for each; a phase
 * with percentile levels is one period of it whose percentiles the location has, summed or averaged as the
 * phase is — so the policy evaluates on the numbers it froze. A window anchored on sowing is checked as it
 * resolves.
 */
export const checkClimatologyBlocks = (
  cover: Cover,
  term: CoverTerm,
  climatology: FrozenClimatology,
  location: string,
  cadence?: Cadence | null,
): void => {
  const named = `climatology ${climatology.name} version ${climatology.version}`;
  for (const phase of cover.phases) {
    checkBlockNormals(phase, term, climatology, named, location, cadence);
    checkPercentileLevels(phase, term, climatology, named, location);
  }
};

const checkBlockNormals = (
  phase: Phase,
  term: CoverTerm,
  climatology: FrozenClimatology,
  named: string,
  location: string,
  cadence: Cadence | null | undefined,
): void => {
  const blocks = phase.blocks;
  const vsNormal = blocks?.vs_normal;
  if (blocks === undefined || vsNormal === undefined || !('climatology' in vsNormal)) return;
  if ((blocks.stat ?? 'sum') !== climatology.stat) {
    throw refused(
      'climatology_period',
      `phase ${phase.id} takes the ${blocks.stat ?? 'sum'} of each block; ${named} holds ${climatology.stat}s`,
      location,
    );
  }
  if (isSowingAnchored(phase.window)) return;
  const window = resolveWindow(phase.window, term, undefined)!;
  for (const block of blockSpansOf(blocks.by, window, sourcePeriodsIn(cadence, window))) {
    const from = `${dateOfDay(block.first)} to ${dateOfDay(block.last)}`;
    const period = periodOfBlock(climatology, block, true);
    if (period === undefined) {
      throw refused('climatology_period', `phase ${phase.id}'s block ${from} is no period of ${named}`, location);
    }
    const normal = normalOf(climatology, period);
    if (normal === undefined) {
      throw refused('no_climatology', `location ${location} has no normal in ${named} for period ${period}`, location);
    }
    if ((vsNormal.as === 'percent' && normal.mean! <= 0) || (vsNormal.as === 'z' && (normal.sd ?? 0) <= 0)) {
      const what = vsNormal.as === 'percent' ? 'normal' : 'standard deviation';
      throw refused(
        'normal_not_positive',
        `location ${location}'s ${what} for period ${period} of ${named} is not above 0 (block ${from})`,
        location,
      );
    }
  }
};

const checkPercentileLevels = (
  phase: Phase,
  term: CoverTerm,
  climatology: FrozenClimatology,
  named: string,
  location: string,
): void => {
  if (!readsPercentiles(phase.payout)) return;
  // The phase's index is one figure of its window: the sum or mean of its days, as the period's value is.
  const statOfIndex = phase.blocks === undefined && (phase.aggregate === 'sum' || phase.aggregate === 'mean');
  if (!statOfIndex || phase.aggregate !== climatology.stat) {
    throw refused(
      'climatology_period',
      `phase ${phase.id}'s percentile levels read its index as ${named}'s ${climatology.stat} of a period: ` +
        `the phase takes the ${climatology.stat} of its days, without blocks`,
      location,
    );
  }
  if (isSowingAnchored(phase.window)) return;
  const window = resolveWindow(phase.window, term, undefined)!;
  const span = { first: window.startDay, last: window.endDay };
  const from = `${window.start} to ${window.end}`;
  if (periodOfBlock(climatology, span, true) === undefined) {
    throw refused('climatology_period', `phase ${phase.id}'s window ${from} is no period of ${named}`, location);
  }
  const percentiles = percentilesOf(climatology, span, true);
  if (percentiles === undefined) {
    throw refused('no_climatology', `location ${location} has no percentiles in ${named} for ${from}`, location);
  }
  const payout = compilePayout(phase.payout, 1n, () => 1n).on(
    window.endDay - window.startDay + 1,
    percentileLevelsOn(climatology, span),
  );
  const paysSomewhere =
    payout.exit === undefined ||
    (payout.direction === 'below' ? payout.exit < payout.trigger : payout.exit > payout.trigger);
  if (!paysSomewhere) {
    throw refused(
      'climatology_period',
      `phase ${phase.id}'s exit is not ${payout.direction} its trigger at location ${location} in ${named}`,
      location,
    );
  }
};

import type { Cadence, ClimatologyNormal, Cover, FrozenClimatology, ProblemCode } from '@cropcover/contracts';
import { DomainError } from '../../domain-error';
import { periodsOfYear } from '../../index-sources/climatologies/climatology-periods';
import { civilOfDay, dateOfDay } from '../calendar/calendar-date';
import type { CoverTerm } from '../calendar/cover-term';
import { millionthsOf } from '../money/decimal';
import { blockSpansOf, type SpanDays, sourcePeriodsIn } from './source-periods';
import { isSowingAnchored, resolveWindow } from './windows';

// Blocks read against a climatology (TERM-SHEETS.md §5, INDEX-DATA §3): each block's normal and standard
// deviation are those of the climatology period it is, in the year it starts, from the numbers the policy
// froze at issue.

/** The climatology a cover's blocks name, if any (validation holds a cover to one). */
export const coverClimatology = (cover: Cover): { readonly name: string; readonly version?: number } | undefined => {
  for (const phase of cover.phases) {
    const normal = phase.blocks?.vs_normal;
    if (normal !== undefined && 'climatology' in normal) return normal.climatology;
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

const refused = (code: ProblemCode, detail: string, location: string): DomainError =>
  new DomainError('rejected', code, detail, [{ path: 'location', message: detail, location }]);

/**
 * What quote and issue check of a cover read against a climatology, on the policy's term: each block is
 * one period of it, summed or averaged as it was, and the location has a usable normal for each — so the
 * policy evaluates on the numbers it froze. A window anchored on sowing is checked as it resolves.
 */
export const checkClimatologyBlocks = (
  cover: Cover,
  term: CoverTerm,
  climatology: FrozenClimatology,
  location: string,
  cadence?: Cadence | null,
): void => {
  for (const phase of cover.phases) {
    const blocks = phase.blocks;
    const vsNormal = blocks?.vs_normal;
    if (blocks === undefined || vsNormal === undefined || !('climatology' in vsNormal)) continue;
    const named = `climatology ${climatology.name} version ${climatology.version}`;
    if ((blocks.stat ?? 'sum') !== climatology.stat) {
      throw refused(
        'climatology_period',
        `phase ${phase.id} takes the ${blocks.stat ?? 'sum'} of each block; ${named} holds ${climatology.stat}s`,
        location,
      );
    }
    if (isSowingAnchored(phase.window)) continue;
    const window = resolveWindow(phase.window, term, undefined)!;
    for (const block of blockSpansOf(blocks.by, window, sourcePeriodsIn(cadence, window))) {
      const from = `${dateOfDay(block.first)} to ${dateOfDay(block.last)}`;
      const period = periodOfBlock(climatology, block, true);
      if (period === undefined) {
        throw refused('climatology_period', `phase ${phase.id}'s block ${from} is no period of ${named}`, location);
      }
      const normal = normalOf(climatology, period);
      if (normal === undefined) {
        throw refused(
          'no_climatology',
          `location ${location} has no normal in ${named} for period ${period}`,
          location,
        );
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
  }
};

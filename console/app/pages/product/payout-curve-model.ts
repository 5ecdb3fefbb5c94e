import type { Cover, Level, PayoutCurve, PayoutMap } from '@cropcover/contracts';
import type { CurveChartModel, CurveLine } from '../../chart/curve-chart';
import { words } from '../../format';

// What the product page draws of a cover: the index range its curve spans, and the curve the API answered
// as lines of a chart — money when the sheet's amounts are money, else shares of the sum insured.

/** A `per_window_day` level drawn as if over a year's days: the range only has to hold the levels. */
const YEAR_DAYS = 366;

/** A percentile is a location's: the sheet alone has no figure for it (NaN, left out of the range). */
const levelValue = (level: Level): number =>
  typeof level === 'number' ? level : 'per_window_day' in level ? level.per_window_day * YEAR_DAYS : Number.NaN;

/** Where a map changes: its trigger and exit, where a tick reaches its limit, a step table's edges. */
const mapLevels = (payout: PayoutMap, limit: number): number[] => {
  if ('linear' in payout) return [levelValue(payout.linear.trigger), levelValue(payout.linear.exit)];
  if ('tick' in payout) {
    const trigger = levelValue(payout.tick.trigger);
    const reach = limit / payout.tick.per_unit;
    return [trigger, payout.tick.direction === 'above' ? trigger + reach : trigger - reach];
  }
  return payout.steps.flatMap((row) => [row.from, row.to].filter((edge): edge is number => edge !== undefined));
};

/** At most 6 decimals, as the API takes a figure. */
const sixDecimals = (value: number): number => Number(value.toFixed(6));

/** The index range a cover's curve is drawn over: from 0 (or a quarter below the lowest level, when one
 *  is negative) to a quarter past the highest level of its phases. */
export const curveRange = (cover: Cover): { readonly from: number; readonly to: number } => {
  const levels = cover.phases
    .flatMap((phase) => mapLevels(phase.payout, phase.limit))
    .filter((level) => !Number.isNaN(level));
  if (levels.length === 0) return { from: 0, to: 1 };
  const [low, high] = [Math.min(...levels), Math.max(...levels)];
  const margin = (high > low ? high - low : Math.max(Math.abs(high), 1)) / 4;
  const from = low >= 0 ? 0 : sixDecimals(low - margin);
  return { from, to: sixDecimals(Math.max(high + margin, from + 1)) };
};

/** The curve as chart lines: the cover, and each phase beside it when it has several. Money in major
 *  units; a sheet in shares of the sum insured as that share (severity × limit). */
export const curveChart = (cover: Cover, curve: PayoutCurve): CurveChartModel => {
  const money = curve.currency !== undefined;
  const limitOf = (phaseId: string) => cover.phases.find((phase) => phase.id === phaseId)?.limit ?? 0;
  const coverLine: CurveLine = {
    id: 'cover',
    label: `${words(cover.peril)} cover`,
    points: curve.points.map((point) => ({
      x: point.index_value,
      y: money ? (point.cover.amount_due ?? 0) : point.cover.severity * cover.limit,
    })),
  };
  const phaseLines: CurveLine[] =
    cover.phases.length < 2
      ? []
      : cover.phases.map((phase, at) => ({
          id: `phase-${at + 1}`,
          label: `phase ${phase.id}`,
          points: curve.points.map((point) => {
            const found = point.phases.find((each) => each.phase === phase.id);
            return {
              x: point.index_value,
              y: money ? (found?.amount_due ?? 0) : (found?.severity ?? 0) * limitOf(phase.id),
            };
          }),
        }));
  return {
    id: `curve-${cover.peril}`,
    title: `What the ${words(cover.peril).toLowerCase()} cover pays by ${cover.index}`,
    description:
      `The amount due at each value of ${cover.index} from ${curve.points[0]?.index_value} to ` +
      `${curve.points.at(-1)?.index_value}, every phase reading the same value, the cover within its limit` +
      ` (windows of ${curve.term_start} to ${curve.term_end}).`,
    xLabel: cover.index,
    yLabel: money ? `amount due (${curve.currency})` : 'share of the sum insured',
    lines: [coverLine, ...phaseLines],
  };
};

// The arithmetic of a chart: calendar days on x, a linear scale with round ticks on y.

import { datesOf, dayOf } from '../dates';

/** A day scale: each day a slot of equal width, a date at the middle of its slot. */
export const dayScale = (from: string, to: string, left: number, right: number) => {
  const first = dayOf(from);
  const slot = (right - left) / Math.max(1, dayOf(to) - first + 1);
  return { slot, x: (date: string): number => left + (dayOf(date) - first + 0.5) * slot };
};

export interface LinearScale {
  readonly ticks: readonly number[];
  readonly y: (value: number) => number;
}

/** A step of 1, 2 or 5 × 10^n giving about `count` intervals over `span`. */
const niceStep = (span: number, count: number): number => {
  const rough = span / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
};

/** A scale over `values` widened to round ticks, drawn from `bottom` (low) to `top` (high). */
export const linearScale = (values: readonly number[], bottom: number, top: number, count = 5): LinearScale => {
  let low = Math.min(0, ...values);
  let high = Math.max(...values, low + 1);
  if (low === high) high = low + 1;
  const step = niceStep(high - low, count);
  low = Math.floor(low / step) * step;
  high = Math.ceil(high / step) * step;
  const ticks: number[] = [];
  // Ticks from integers × step, so 0.1 + 0.2 never shows as 0.30000000000000004.
  for (let n = Math.round(low / step); n <= Math.round(high / step); n += 1)
    ticks.push(Number((n * step).toPrecision(12)));
  return { ticks, y: (value) => bottom - ((value - low) / (high - low)) * (bottom - top) };
};

/** About `count` dates of [from, to] to label: month starts when the window spans months, else evenly. */
export const dateTicks = (from: string, to: string, count = 6): string[] => {
  const dates = datesOf(from, to);
  const monthStarts = dates.filter((date) => date.endsWith('-01'));
  if (monthStarts.length >= 2 && monthStarts.length <= 13) return monthStarts;
  const every = Math.max(1, Math.ceil(dates.length / count));
  return dates.filter((_, index) => index % every === 0);
};

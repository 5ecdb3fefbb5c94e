import type { DateRef, IndexAggregate, Level, PayoutMap, Phase, TermSheet } from '@cropcover/contracts';
import { figure, moneyOfMinorUnits } from '../../format';

// A term sheet's parts in words, as the product page's table of phases shows them.

/** `06-01`, or `term start + 10 days`. */
export const dateRefText = (ref: DateRef): string => {
  if (typeof ref === 'string') return ref;
  const anchor = ref.anchor.replace('_', ' ');
  return ref.days === 0 ? anchor : `${anchor} ${ref.days > 0 ? '+' : '−'} ${Math.abs(ref.days)} days`;
};

export const levelText = (level: Level): string =>
  typeof level === 'number'
    ? figure(level)
    : 'per_window_day' in level
      ? `${figure(level.per_window_day)} per window day`
      : `the location's ${level.percentile}th percentile`;

/** An amount of the sheet: money of its basis, or a share of the sum insured. */
export const amountText = (sheet: TermSheet, amount: number): string =>
  sheet.amounts.unit === 'minor'
    ? moneyOfMinorUnits(amount, sheet.amounts.currency)
    : `${figure(amount * 100)}% of the sum insured`;

export const aggregateText = (aggregate: IndexAggregate): string => {
  if (typeof aggregate === 'string') return aggregate.replace('_', ' ');
  if ('rolling' in aggregate) {
    const { days, stat, pick } = aggregate.rolling;
    return `${pick} of the ${days}-day rolling ${stat}`;
  }
  if ('events' in aggregate) {
    return 'min_days' in aggregate.events
      ? `events of ${aggregate.events.min_days} qualifying days`
      : `${aggregate.events.days}-day events totalling at least ${figure(aggregate.events.total_at_least)}`;
  }
  return 'first_day' in aggregate ? 'first qualifying day' : 'last qualifying day';
};

/** What the phase's index is: its day transform, its blocks and its aggregate. */
export const indexText = (phase: Phase): string => {
  const parts: string[] = [];
  const { day, blocks } = phase;
  if (day !== undefined) {
    if ('cap' in day) parts.push(`days capped at ${figure(day.cap)}`);
    else if ('is' in day) parts.push(`days ${day.is.op} ${figure(day.is.value)}`);
    else if ('below' in day.exceedance) parts.push(`degrees below ${figure(day.exceedance.below)}`);
    else parts.push(`degrees above ${figure(day.exceedance.above)}`);
  }
  if (blocks !== undefined) {
    const by =
      blocks.by === 'source_period'
        ? "the source's periods"
        : typeof blocks.by === 'string'
          ? `${blocks.by}s`
          : 'days' in blocks.by
            ? `${blocks.by.days}-day blocks`
            : `${blocks.by.months}-month blocks`;
    parts.push(`by ${by}${blocks.cap === undefined ? '' : `, each capped at ${figure(blocks.cap)}`}`);
  }
  parts.push(aggregateText(phase.aggregate));
  return parts.join('; ');
};

export const payoutText = (sheet: TermSheet, payout: PayoutMap): string => {
  if ('linear' in payout) {
    const { direction, trigger, exit } = payout.linear;
    return `${direction} ${levelText(trigger)}, in full at ${levelText(exit)}`;
  }
  if ('tick' in payout) {
    const { direction, trigger, per_unit } = payout.tick;
    return `${direction} ${levelText(trigger)}: ${amountText(sheet, per_unit)} per unit, to the limit`;
  }
  return payout.steps
    .map(
      (row) =>
        `[${row.from === undefined ? '−∞' : figure(row.from)}, ${row.to === undefined ? '∞' : figure(row.to)}) pays ${amountText(sheet, row.pay)}`,
    )
    .join('; ');
};

export const settleText = (phase: Phase): string => {
  const settle = phase.settle ?? 'any_time';
  return typeof settle === 'string' ? settle.replace('_', ' ') : `after ${settle.after_days} days`;
};

import type { PolicyTriggerCourses, TriggerCourseDay } from '@cropcover/contracts';
import { dateOfDay, dayNumber } from '../insurance/calendar-date';
import type { ReadingHistory } from '../insurance/reading-history';
import {
  aggregateWindow,
  type DayValue,
  observedValueOf,
  triggerLevels,
  windowReadings,
} from '../insurance/trigger-evaluation';
import { policyTerm } from './peril-assessment';
import type { IssuedPolicy, PerilCover } from './policy';
import { liveTriggerWindow } from './trigger-status';

/** The day's reading and the aggregate of [startDay, day] for each day of [startDay, endDay]: the
 *  evaluation's own aggregate (`aggregateWindow`) over the readings up to that day, read and scaled once
 *  for the whole window rather than once per day. */
const dailyCourse = (cover: PerilCover, readings: readonly DayValue[], startDay: number, endDay: number) => {
  const levels = triggerLevels(cover.terms);
  const days: TriggerCourseDay[] = [];
  let next = 0;
  for (let day = startDay; day <= endDay; day += 1) {
    const value = readings[next]?.[0] === day ? readings[next]![1] : undefined;
    while (next < readings.length && readings[next]![0] <= day) next += 1;
    const observed = aggregateWindow(levels, cover.terms.aggregation, readings.slice(0, next), startDay, day);
    days.push({
      date: dateOfDay(day),
      value: value === undefined ? null : observedValueOf({ numerator: value, denominator: 1n }),
      observed_value: observed.kind === 'skipped' ? null : observedValueOf(observed),
    });
  }
  return days;
};

/** Each peril's reading and aggregate on each day of its window so far, the aggregate as a live
 *  evaluation as of that day reads it from these readings (a property test holds them equal), so the
 *  line a person sees passes through every evaluation recorded on unchanged data. */
export const triggerCourses = (
  policy: IssuedPolicy,
  readings: ReadingHistory,
  today: string,
): PolicyTriggerCourses['covers'] => {
  const term = policyTerm(policy);
  const window = liveTriggerWindow(policy, today);
  return policy.perils.map((cover) => {
    const days =
      window === undefined
        ? []
        : dailyCourse(
            cover,
            windowReadings(readings[cover.terms.peril] ?? [], window.start, window.end),
            dayNumber(window.start),
            dayNumber(window.end),
          );
    return {
      peril: cover.terms.peril,
      trigger_index: cover.terms.trigger_index,
      reading: cover.terms.reading,
      comparison: cover.terms.comparison,
      trigger: cover.terms.threshold,
      exit: cover.terms.exit,
      window_start: term.start,
      window_end: term.end,
      data_source: cover.data,
      days,
    };
  });
};

import { z } from '../zod';
import { CalendarDate } from './calendar-date';
import { PerilDataSource } from './index-sources';
import { Comparison, Peril, ReadingIndex, TriggerIndex } from './peril';

// A trigger's aggregate day by day through its window: what a person compares with the trigger and the
// exit on a chart (the console), where the evaluation history gives only the days something changed.

export const TriggerCourseDay = z
  .object({
    date: CalendarDate,
    /** The day's reading of the cover's source at its location (its latest revision); null when none. */
    value: z.number().nullable(),
    /** The aggregate a live evaluation as of this date reads from today's data; null when it would skip
     *  the peril (no or too few readings). */
    observed_value: z.number().nullable(),
  })
  .openapi('TriggerCourseDay');
export type TriggerCourseDay = z.infer<typeof TriggerCourseDay>;

export const TriggerCourse = z
  .object({
    peril: Peril,
    trigger_index: TriggerIndex,
    /** The daily reading the aggregate is made of. */
    reading: ReadingIndex,
    comparison: Comparison,
    /** Breach at or beyond this aggregate. */
    trigger: z.number(),
    /** Severity 1 at or beyond this aggregate; linear between trigger and exit. */
    exit: z.number(),
    /** The cover's whole window. */
    window_start: CalendarDate,
    window_end: CalendarDate,
    data_source: PerilDataSource,
    /** Each day of the window up to today (none before it opens). */
    days: z.array(TriggerCourseDay),
  })
  .openapi('TriggerCourse');
export type TriggerCourse = z.infer<typeof TriggerCourse>;

export const PolicyTriggerCourses = z
  .object({
    policy_id: z.string(),
    /** Today: the data the courses were worked out from. */
    as_of: CalendarDate,
    covers: z.array(TriggerCourse),
  })
  .openapi('PolicyTriggerCourses');
export type PolicyTriggerCourses = z.infer<typeof PolicyTriggerCourses>;

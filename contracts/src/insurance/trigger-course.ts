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

/** A phase's own index on a day of its window: what a live evaluation as of that day reads for it. */
export const TriggerCoursePhaseDay = z
  .object({
    date: CalendarDate,
    /** Null when the phase could not be evaluated that day (no or too few readings). */
    observed_value: z.number().nullable(),
  })
  .openapi('TriggerCoursePhaseDay');
export type TriggerCoursePhaseDay = z.infer<typeof TriggerCoursePhaseDay>;

/** One phase of a cover of several phases: its own window, trigger, exit and index day by day. */
export const TriggerCoursePhase = z
  .object({
    phase: z.string(),
    /** The phase's full window for the term; absent while anchored on a sowing date not known yet. */
    window_start: CalendarDate.optional(),
    window_end: CalendarDate.optional(),
    comparison: Comparison,
    /** Where the phase starts to pay (a step table: the edge of its paying rows); absent while its
     *  window is not known. */
    trigger: z.number().optional(),
    /** Where a linear phase pays its whole limit; absent for a step table or a tick. */
    exit: z.number().optional(),
    /** Each day of the phase's window up to today (none before it opens). */
    days: z.array(TriggerCoursePhaseDay),
  })
  .openapi('TriggerCoursePhase');
export type TriggerCoursePhase = z.infer<typeof TriggerCoursePhase>;

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
    /** Each day of the window up to today (none before it opens); `observed_value` is the governing
     *  phase's index, as the evaluations show it. */
    days: z.array(TriggerCourseDay),
    /** Each phase of a cover of several phases; absent for a single phase (its window, trigger and exit
     *  are the cover's above), as on every evaluation. */
    phases: z.array(TriggerCoursePhase).optional(),
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

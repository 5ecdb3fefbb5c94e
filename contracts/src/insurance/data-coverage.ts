import { z } from '../zod';
import { Peril } from './peril';

// How much of a trigger's window the data covers: a payout is only as trustworthy as the days behind it.

/** Days of the aggregate's window that hold a reading, and the days the window has. Integers, so the
 *  ratio is exact; a maximum (flood, storm) is evaluated on the days present and says so here. */
export const DataCoverage = z
  .object({
    days_with_reading: z.number().int().nonnegative(),
    days_in_window: z.number().int().positive(),
  })
  .openapi('DataCoverage');
export type DataCoverage = z.infer<typeof DataCoverage>;

/** Why a peril was not evaluated: no phase of its cover has begun yet (`window_not_open`), no reading in
 *  its window at all, or too few days for a sum or mean (below the phase's `min_coverage`). None is ever
 *  read as "not breached". */
export const SkipReason = z.enum(['no_data', 'incomplete_data', 'window_not_open']).openapi('SkipReason');
export type SkipReason = z.infer<typeof SkipReason>;

export const SkipReasons = z.partialRecord(Peril, SkipReason).openapi('SkipReasons');
export type SkipReasons = z.infer<typeof SkipReasons>;

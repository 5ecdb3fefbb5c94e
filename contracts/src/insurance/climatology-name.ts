import { z } from '../zod';

/** A climatology's name on its source: what a sheet's `vs_normal.climatology` and the API's paths name. */
export const ClimatologyName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_.-]{0,99}$/, { message: 'must be 1-100 lowercase letters, digits, _, . or -' })
  .openapi({ example: 'chirps-dekadal-1991-2020' });

/** The percentiles a climatology keeps per location and period (INDEX-DATA §3: p5…p95 by 5), which a
 *  sheet's `{percentile: p}` level may name. */
export const PERCENTILE_RANKS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90, 95] as const;

/** A climatology a sheet names: its name, and a version, else the latest at quote and issue. */
export const ClimatologyReference = z
  .strictObject({ name: ClimatologyName, version: z.number().int().min(1).optional() })
  .openapi('ClimatologyReference');
export type ClimatologyReference = z.infer<typeof ClimatologyReference>;

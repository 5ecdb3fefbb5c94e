import { z } from '../zod';

/** A climatology's name on its source: what a sheet's `vs_normal.climatology` and the API's paths name. */
export const ClimatologyName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_.-]{0,99}$/, { message: 'must be 1-100 lowercase letters, digits, _, . or -' })
  .openapi({ example: 'chirps-dekadal-1991-2020' });

import { z } from '../zod';

// page and page_size arrive as query strings; anything but plain decimal digits for an integer in range
// is a 400. A number coercion would also read `0x10`, `1e1`, ` 2` or `+3`, so the digits are checked first.
// Nine digits at most keep the value an exact integer.
export const queryInteger = (message: string, { min, max = 999_999_999 }: { min: number; max?: number }) =>
  z
    .string({ message })
    .regex(/^\d{1,9}$/, { message })
    .transform(Number)
    .pipe(z.number().min(min, { message }).max(max, { message }));

export const PageNumber = queryInteger('must be an integer of at least 1', { min: 1 }).default(1);

export const PageSize = queryInteger('must be an integer from 1 to 100', { min: 1, max: 100 }).default(20);

/** A `true`/`false` query flag, false when absent; anything else is a 400. */
export const queryFlag = () =>
  z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .optional()
    .transform((value) => value === 'true');

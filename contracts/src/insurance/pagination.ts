import { z } from '../zod';

// page and page_size arrive as query strings; anything but plain decimal digits for an integer in range
// is a 400. A number coercion would also read `0x10`, `1e1`, ` 2` or `+3`, so the digits are checked first.
// Nine digits at most keep the value an exact integer.
export const queryInteger = (message: string, { min, max = 999_999_999 }: { min: number; max?: number }) =>
  z
    .string({ message })
    .regex(/^\d{1,9}$/, { message })
    .transform(Number)
    .pipe(z.number().min(min, { message }).max(max, { message }))
    .openapi({ type: 'integer', minimum: min, maximum: max });

// The document states the default itself: a type given in `.openapi()` replaces the generated schema whole.
const queryIntegerOr = (fallback: number, ...integer: Parameters<typeof queryInteger>) =>
  queryInteger(...integer)
    .default(fallback)
    .openapi({ default: fallback });

export const PageNumber = queryIntegerOr(1, 'must be an integer of at least 1', { min: 1 });

export const PageSize = queryIntegerOr(20, 'must be an integer from 1 to 100', { min: 1, max: 100 });

/** A `true`/`false` query flag, false when absent; anything else is a 400. */
export const queryFlag = () =>
  z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .optional()
    .transform((value) => value === 'true');

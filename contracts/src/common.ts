import { z } from './zod';

export const DateTime = z.iso.datetime({ offset: true }).openapi({ example: '2026-03-01T09:30:00.000Z' });

/** A trimmed, non-empty string of at most `max` characters. */
export const TrimmedText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { message: 'must not be empty' })
    .max(max, { message: `must be at most ${max} characters` });

/** The body of a request that takes no input (settle, the DELETEs): absent or `{}`. Any field in it is
 *  unknown, and refused as on every other route, rather than silently ignored. */
export const NoBody = z.strictObject({});

export const ProblemDetails = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    code: z.string(),
    request_id: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi('ProblemDetails');

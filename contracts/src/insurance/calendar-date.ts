import { z } from '../zod';

const isRealCalendarDate = (value: string): boolean => {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};

/** A UTC calendar date `YYYY-MM-DD` that exists: 2026-02-30 and 2025-02-29 are refused. */
export const CalendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date YYYY-MM-DD' })
  .refine(isRealCalendarDate, { message: 'must be a real calendar date' })
  .openapi({ example: '2026-04-01', format: 'date' });
export type CalendarDate = z.infer<typeof CalendarDate>;

import { type ColumnType, type Expression, type RawBuilder, sql } from 'kysely';

// Calendar dates are SQL `date`. node-postgres would parse one into a Date at local midnight, which shifts
// the day in any timezone west of UTC; so date columns are typed as the 'YYYY-MM-DD' string they go in as,
// and read through `calendarDateOf`.

export type CalendarDateColumn = ColumnType<string, string, string>;
export type NullableCalendarDateColumn = ColumnType<string | null, string | null, string | null>;

/** Selects a date column as its 'YYYY-MM-DD' text, whatever the session's DateStyle. */
export const calendarDateOf = <T extends string | null>(column: Expression<T>): RawBuilder<T> =>
  sql<T>`to_char(${column}, 'YYYY-MM-DD')`;

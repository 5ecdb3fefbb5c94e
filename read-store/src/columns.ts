import type { ColumnType } from 'kysely';

// Column types shared by every table of the read store. Timestamps come back as Date (node-postgres parses
// timestamptz) and go in as ISO strings, exactly as the events carry them.

export type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type NullableTimestamp = ColumnType<Date | null, Date | string | null, Date | string | null>;

/** Nullable jsonb array of strings. It goes in as JSON text: node-postgres would send a JS array as a
 *  PostgreSQL array literal, which jsonb rejects. */
export type NullableJsonStringArray = ColumnType<string[] | null, string | null, string | null>;

/** numeric(20,0): holds any unsigned 64-bit log position; node-postgres returns numeric as a string. */
export type PositionColumn = ColumnType<string, string, string>;

import type { ReadModels } from '@cropcover/read-store';
import { sql } from 'kysely';

// A projection reads and writes a whole batch's rows at once; these carry the batch in one bind parameter
// per statement instead of one per value, which kysely and node-postgres otherwise spend most of a
// rebuild's CPU compiling and serialising (profile in docs/benchmarks.md).

/** `column = any(…)` of a batch's keys, as one text[] parameter however many keys there are. */
export const anyOf = (keys: readonly string[]) => sql<string>`any(${keys}::text[])`;

// A bigint (int8 columns come back from node-postgres as one) travels as its decimal text, which int8's
// input reads exactly; JSON.stringify would throw on it.
const exactBigints = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value);

/**
 * A batch's rows as the set PostgreSQL builds from one JSON parameter, for `insert … select`. Columns
 * are matched by name; a missing key is NULL (no read-model table has column defaults), a jsonb column
 * takes the value itself (an object or array, not JSON text) and a text[] column a JSON array.
 */
export const recordsetOf = <Row extends object>(table: keyof ReadModels & string, rows: readonly Row[]) =>
  sql<Row>`select * from json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(rows, exactBigints)}::json)`;

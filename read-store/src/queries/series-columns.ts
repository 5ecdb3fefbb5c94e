import { type Kysely, sql } from 'kysely';
import type { ReadModels } from '../read-models';

export interface SeriesKey {
  readonly sourceId: string;
  readonly location: string;
  readonly index: string;
}

/** A series' readings as columns, in date order: 16 bytes a reading, where an object per reading with
 *  its date as text takes several times that. Days count from 1970-01-01. */
export interface SeriesColumns {
  readonly days: Int32Array;
  readonly values: Float64Array;
  readonly revisions: Int32Array;
}

/** Every reading of one series, as columns. One row carries the days, values and revisions as
 *  comma-joined texts (an object per reading cost ~10x the query); the aggregates read the ordered range
 *  of the primary key as it comes, all three in the one same order. A double prints in its shortest
 *  round-trip text, so each value reads back as the very number stored. */
export const loadSeriesColumns = async (
  db: Kysely<ReadModels>,
  { sourceId, location, index }: SeriesKey,
): Promise<SeriesColumns> => {
  const { rows } = await sql<{ days: string | null; values: string | null; revisions: string | null }>`
    select string_agg(("date" - date '1970-01-01')::text, ',') as days,
           string_agg("value"::text, ',') as "values",
           string_agg(revision::text, ',') as revisions
    from (select "date", "value", revision from index_readings
          where source_id = ${sourceId} and location = ${location} and "index" = ${index}
          order by "date") as ordered`.execute(db);
  const row = rows[0];
  if (!row || row.days === null || row.values === null || row.revisions === null) {
    return { days: new Int32Array(0), values: new Float64Array(0), revisions: new Int32Array(0) };
  }
  return inDayOrder({
    days: Int32Array.from(row.days.split(','), Number),
    values: Float64Array.from(row.values.split(','), Number),
    revisions: Int32Array.from(row.revisions.split(','), Number),
  });
};

/** The columns sorted by day. An aggregate over an ordered subquery keeps its order in practice, but
 *  PostgreSQL does not promise it (a parallel aggregate would not), and readers search the days by
 *  bisection: one pass checks the order, and the rare list out of it is sorted, all three columns alike. */
export const inDayOrder = (columns: SeriesColumns): SeriesColumns => {
  const { days, values, revisions } = columns;
  let sorted = true;
  for (let at = 1; at < days.length && sorted; at += 1) sorted = days[at - 1]! < days[at]!;
  if (sorted) return columns;
  const order = Array.from(days.keys()).sort((a, b) => days[a]! - days[b]!);
  return {
    days: Int32Array.from(order, (at) => days[at]!),
    values: Float64Array.from(order, (at) => values[at]!),
    revisions: Int32Array.from(order, (at) => revisions[at]!),
  };
};

/** The current version of each location's readings (migration 0015), by JSON [source_id, location];
 *  a location that never had a reading is absent. */
export const loadReadingVersions = async (
  db: Kysely<ReadModels>,
  locations: readonly { readonly sourceId: string; readonly location: string }[],
): Promise<Map<string, bigint>> => {
  if (locations.length === 0) return new Map();
  const { rows } = await sql<{ source_id: string; location: string; version: bigint }>`
    select v.source_id, v.location, v.version
    from unnest(${locations.map((at) => at.sourceId)}::text[], ${locations.map((at) => at.location)}::text[])
      as wanted (source_id, location)
    join index_reading_versions v using (source_id, location)`.execute(db);
  return new Map(rows.map((row) => [JSON.stringify([row.source_id, row.location]), BigInt(row.version)]));
};

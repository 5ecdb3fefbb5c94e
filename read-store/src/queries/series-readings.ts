import type { IndexObservation } from '@cropcover/domain';
import { type Kysely, sql } from 'kysely';
import type { ReadModels } from '../read-models';
import { readingFilesOfRows } from './reading-files';

export interface SeriesQuery {
  readonly sourceId: string;
  readonly location: string;
  readonly index: string;
  readonly from: string;
  readonly to: string;
  /** The readings as they stood at this instant (from the revisions kept); absent: as they stand now. */
  readonly asOf?: Date;
}

interface ReadingRow {
  readonly date: string;
  readonly value: number;
  readonly revision: number;
  readonly label: string | null;
  readonly file_sha256: string | null;
}

/** One series' readings of [from, to] in date order, each with the file it came from (INDEX-DATA §4): the
 *  current ones, or those current at `asOf` — a reading recorded by then and not yet replaced, else the
 *  revision it replaced that was. */
export const loadSeriesReadings = async (
  db: Kysely<ReadModels>,
  { sourceId, location, index, from, to, asOf }: SeriesQuery,
): Promise<IndexObservation[]> => {
  const current = sql`
    select to_char("date", 'YYYY-MM-DD') as "date", "value", revision, label, file_sha256 from index_readings
    where source_id = ${sourceId} and location = ${location} and "index" = ${index}
      and "date" between ${from} and ${to}`;
  const query =
    asOf === undefined
      ? sql<ReadingRow>`${current} order by "date"`
      : sql<ReadingRow>`
          ${current} and recorded_at <= ${asOf}
          union all
          select to_char("date", 'YYYY-MM-DD'), "value", revision, label, file_sha256 from index_reading_revisions
          where source_id = ${sourceId} and location = ${location} and "index" = ${index}
            and "date" between ${from} and ${to} and recorded_at <= ${asOf} and replaced_at > ${asOf}
          order by "date"`;
  const { rows } = await query.execute(db);
  const filesOf = readingFilesOfRows();
  return rows.map(({ date, value, revision, label, file_sha256 }) => {
    const files = filesOf(file_sha256, label);
    return files === undefined ? { date, value, revision } : { date, value, revision, files };
  });
};

/** Series of [from, to] to read in one query. */
export type SeriesRange = Omit<SeriesQuery, 'asOf'>;

/** Each series' readings of [from, to] in date order as they stood just before `until` — a reading
 *  recorded before it and not replaced by then, else the revision it replaced that was —, in the order
 *  the series were asked for: one query for the whole batch, whatever the number of locations. */
export const loadSeriesReadingsBefore = async (
  db: Kysely<ReadModels>,
  series: readonly SeriesRange[],
  until: Date,
): Promise<IndexObservation[][]> => {
  const found = series.map((): IndexObservation[] => []);
  if (series.length === 0) return found;
  const { rows } = await sql<IndexObservation & { series: number }>`
    with wanted as (
      select (position - 1)::integer as series, source_id, location, "index", "from", "to"
      from unnest(
        ${series.map((one) => one.sourceId)}::text[],
        ${series.map((one) => one.location)}::text[],
        ${series.map((one) => one.index)}::text[],
        ${series.map((one) => one.from)}::date[],
        ${series.map((one) => one.to)}::date[]
      ) with ordinality as wanted (source_id, location, "index", "from", "to", position)
    )
    select wanted.series, to_char(reading."date", 'YYYY-MM-DD') as "date", reading."value", reading.revision
    from wanted join index_readings reading using (source_id, location, "index")
    where reading."date" between wanted."from" and wanted."to" and reading.recorded_at < ${until}
    union all
    select wanted.series, to_char(earlier."date", 'YYYY-MM-DD'), earlier."value", earlier.revision
    from wanted join index_reading_revisions earlier using (source_id, location, "index")
    where earlier."date" between wanted."from" and wanted."to"
      and earlier.recorded_at < ${until} and earlier.replaced_at >= ${until}
    order by series, "date"`.execute(db);
  for (const { series: at, date, value, revision } of rows) found[at]!.push({ date, value, revision });
  return found;
};

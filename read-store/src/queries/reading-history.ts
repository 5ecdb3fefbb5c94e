import type { Peril, PerilDataSource } from '@cropcover/contracts';
import {
  type IndexObservation,
  type ReadingHistory,
  type ReadingHistoryQuery,
  sampledCellsOf,
  sampledSeries,
} from '@cropcover/domain';
import { type Kysely, sql } from 'kysely';
import type { ReadModels } from '../read-models';
import { readingFilesOfRows } from './reading-files';

const seriesOf = (data: PerilDataSource): string => JSON.stringify([data.source_id, data.location, data.index]);

interface SeriesQuery {
  readonly sourceId: string;
  readonly location: string;
  readonly index: string;
  readonly from?: string;
  readonly to?: string;
}

// One query per series, a range of the primary key already in date order. One row carries its dates,
// values, revisions and origins (label, file) as comma-joined texts: pricing reads 30 years of daily
// readings (~33,000 rows), and building a row object per reading cost ~10x the query. The aggregates read
// the ordered subquery as it comes instead of sorting it again (three `order by` sorts took half the
// time); they see the rows in one same order, so the columns stay aligned whatever it is, and the domain
// sorts a list that is out of order. double precision prints the shortest text that reads back to the
// same number, so values round-trip. Labels hold no comma (`IndexFileQuery`), hex digests none either.
const loadSeries = async (db: Kysely<ReadModels>, series: SeriesQuery): Promise<IndexObservation[]> => {
  const { from, to } = series;
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('index_readings')
        .select(['date', 'value', 'revision', 'label', 'file_sha256'])
        .where('source_id', '=', series.sourceId)
        .where('location', '=', series.location)
        .where('index', '=', series.index)
        .$if(from !== undefined, (query) => query.where('date', '>=', from!))
        .$if(to !== undefined, (query) => query.where('date', '<=', to!))
        .orderBy('date')
        .as('ordered'),
    )
    .select([
      sql<string | null>`string_agg(to_char(date, 'YYYY-MM-DD'), ',')`.as('dates'),
      sql<string | null>`string_agg(value::text, ',')`.as('values'),
      sql<string | null>`string_agg(revision::text, ',')`.as('revisions'),
      sql<string | null>`string_agg(coalesce(file_sha256, ''), ',')`.as('files'),
      sql<string | null>`string_agg(coalesce(label, ''), ',')`.as('labels'),
    ])
    .executeTakeFirstOrThrow();
  if (row.dates === null || row.values === null || row.revisions === null) return [];
  const values = row.values.split(',');
  const revisions = row.revisions.split(',');
  const sha256s = row.files!.split(',');
  const labels = row.labels!.split(',');
  const filesOf = readingFilesOfRows();
  return row.dates.split(',').map((date, at) => {
    const reading = { date, value: Number(values[at]), revision: Number(revisions[at]) };
    const files = filesOf(sha256s[at]!, labels[at]!);
    return files === undefined ? reading : { ...reading, files };
  });
};

/** A location's series: its own, or, for a sampled one (bilinear, unit mean), the series its cells give
 *  together, each cell read side by side. */
const loadLocation = async (
  db: Kysely<ReadModels>,
  data: PerilDataSource,
  from?: string,
  to?: string,
): Promise<IndexObservation[]> => {
  const series = { sourceId: data.source_id, index: data.index, from, to };
  if (data.sampling === undefined) return loadSeries(db, { ...series, location: data.location });
  const sampled = sampledCellsOf(data.sampling);
  const cells = [...new Set(sampled.cells.map(({ cell }) => cell))];
  const lists = await Promise.all(cells.map((cell) => loadSeries(db, { ...series, location: cell })));
  const byCell = new Map(cells.map((cell, at) => [cell, lists[at]!]));
  return sampledSeries(sampled, (cell) => byCell.get(cell) ?? []);
};

/** Each peril's readings from its source and location, in ascending date order. Every peril asked for
 *  is present, with an empty list when its data has none in the range; perils reading the same series
 *  share one list. */
export const loadReadingHistory = async (
  db: Kysely<ReadModels>,
  { sources, from, to }: ReadingHistoryQuery,
): Promise<ReadingHistory> => {
  const perils = Object.entries(sources) as [Peril, PerilDataSource][];
  const series = new Map<string, PerilDataSource>(perils.map(([, data]) => [seriesOf(data), data]));
  const loaded = new Map(
    await Promise.all([...series].map(async ([key, data]) => [key, await loadLocation(db, data, from, to)] as const)),
  );
  return Object.fromEntries(perils.map(([peril, data]) => [peril, loaded.get(seriesOf(data))!]));
};

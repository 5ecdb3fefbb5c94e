import type { Peril, PerilDataSource } from '@cropcover/contracts';
import type { IndexObservation, ReadingHistory, ReadingHistoryQuery } from '@cropcover/domain';
import { type Kysely, sql } from 'kysely';
import type { ReadModels } from '../read-models';

const seriesKey = (sourceId: string, location: string, index: string): string =>
  JSON.stringify([sourceId, location, index]);
const seriesOf = (data: PerilDataSource): string => seriesKey(data.source_id, data.location, data.index);

/** Each peril's readings from its source and location, in ascending date order. Every peril asked for
 *  is present, with an empty list when its data has none in the range; perils reading the same series
 *  share one list. */
export const loadReadingHistory = async (
  db: Kysely<ReadModels>,
  { sources, from, to }: ReadingHistoryQuery,
): Promise<ReadingHistory> => {
  const perils = Object.entries(sources) as [Peril, PerilDataSource][];
  const series = new Map<string, PerilDataSource>(perils.map(([, data]) => [seriesOf(data), data]));
  const loaded = new Map<string, IndexObservation[]>([...series.keys()].map((key) => [key, []]));
  if (series.size > 0) {
    // One row per series carrying its dates, values and revisions as comma-joined texts: pricing reads 30
    // years of daily readings (~33,000 rows), and building a row object per reading cost ~10x the query.
    // double precision prints the shortest text that reads back to the same number, so values round-trip.
    const rows = await db
      .selectFrom('index_readings')
      .select([
        'source_id',
        'location',
        'index',
        sql<string>`string_agg(to_char(date, 'YYYY-MM-DD'), ',' order by date)`.as('dates'),
        sql<string>`string_agg(value::text, ',' order by date)`.as('values'),
        sql<string>`string_agg(revision::text, ',' order by date)`.as('revisions'),
      ])
      .where(
        sql<boolean>`(source_id, location, "index") in (${sql.join(
          [...series.values()].map((data) => sql`(${data.source_id}, ${data.location}, ${data.index})`),
        )})`,
      )
      .$if(from !== undefined, (query) => query.where('date', '>=', from!))
      .$if(to !== undefined, (query) => query.where('date', '<=', to!))
      .groupBy(['source_id', 'location', 'index'])
      .execute();
    for (const row of rows) {
      const dates = row.dates.split(',');
      const values = row.values.split(',');
      const revisions = row.revisions.split(',');
      loaded.set(
        seriesKey(row.source_id, row.location, row.index),
        dates.map((date, at) => ({ date, value: Number(values[at]), revision: Number(revisions[at]) })),
      );
    }
  }
  return Object.fromEntries(perils.map(([peril, data]) => [peril, loaded.get(seriesOf(data))!]));
};

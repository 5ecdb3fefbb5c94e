import type { IndexObservation } from '@cropcover/domain';
import { type Kysely, sql } from 'kysely';
import type { ReadModels } from '../read-models';

export interface SeriesQuery {
  readonly sourceId: string;
  readonly location: string;
  readonly index: string;
  readonly from: string;
  readonly to: string;
  /** The readings as they stood at this instant (from the revisions kept); absent: as they stand now. */
  readonly asOf?: Date;
}

/** One series' readings of [from, to] in date order: the current ones, or those current at `asOf` — a
 *  reading recorded by then and not yet replaced, else the revision it replaced that was. */
export const loadSeriesReadings = async (
  db: Kysely<ReadModels>,
  { sourceId, location, index, from, to, asOf }: SeriesQuery,
): Promise<IndexObservation[]> => {
  const current = sql`
    select to_char("date", 'YYYY-MM-DD') as "date", "value", revision from index_readings
    where source_id = ${sourceId} and location = ${location} and "index" = ${index}
      and "date" between ${from} and ${to}`;
  const query =
    asOf === undefined
      ? sql<IndexObservation>`${current} order by "date"`
      : sql<IndexObservation>`
          ${current} and recorded_at <= ${asOf}
          union all
          select to_char("date", 'YYYY-MM-DD'), "value", revision from index_reading_revisions
          where source_id = ${sourceId} and location = ${location} and "index" = ${index}
            and "date" between ${from} and ${to} and recorded_at <= ${asOf} and replaced_at > ${asOf}
          order by "date"`;
  const { rows } = await query.execute(db);
  return rows;
};

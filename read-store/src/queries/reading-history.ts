import type { ReadingIndex } from '@cropcover/contracts';
import type { IndexObservation, ReadingHistory, ReadingHistoryQuery } from '@cropcover/domain';
import { type Kysely, sql } from 'kysely';
import type { ReadModels } from '../read-models';

/** One field's readings of the given indices, each in ascending date order. Every index asked for is
 *  present in the result, with an empty list when the field has none in the range. */
export const loadReadingHistory = async (
  db: Kysely<ReadModels>,
  { farmId, fieldId, indices, from, to }: ReadingHistoryQuery,
): Promise<ReadingHistory> => {
  const history: Partial<Record<ReadingIndex, IndexObservation[]>> = Object.fromEntries(
    indices.map((index) => [index, []]),
  );
  if (indices.length === 0) return history;
  // One row per index carrying its dates and values as two comma-joined texts: pricing reads 30 years
  // of daily readings (~33,000 rows), and building a row object per reading cost ~10x the query itself.
  // double precision prints the shortest text that reads back to the same number, so values round-trip.
  const rows = await db
    .selectFrom('index_readings')
    .select([
      'index',
      sql<string>`string_agg(to_char(date, 'YYYY-MM-DD'), ',' order by date)`.as('dates'),
      sql<string>`string_agg(value::text, ',' order by date)`.as('values'),
    ])
    .where('farm_id', '=', farmId)
    .where('field_id', '=', fieldId)
    .where('index', 'in', indices)
    .$if(from !== undefined, (query) => query.where('date', '>=', from!))
    .$if(to !== undefined, (query) => query.where('date', '<=', to!))
    .groupBy('index')
    .execute();
  for (const row of rows) {
    const dates = row.dates.split(',');
    const values = row.values.split(',');
    history[row.index as ReadingIndex] = dates.map((date, at) => ({ date, value: Number(values[at]) }));
  }
  return history;
};

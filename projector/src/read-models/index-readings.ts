import type { ReadingIndex } from '@cropcover/contracts';
import type { IndexObservation, ReadingHistory } from '@cropcover/domain';
import type { Kysely } from 'kysely';
import { calendarDateOf } from './calendar-date-column';
import type { ReadModels } from './schema';

export interface ReadingHistoryQuery {
  readonly farmId: string;
  readonly fieldId: string;
  readonly indices: readonly ReadingIndex[];
  /** First date included; absent = as far back as the readings go (pricing looks at past seasons). */
  readonly from?: string;
  /** Last date included; absent = up to the latest reading. */
  readonly to?: string;
}

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
  let query = db
    .selectFrom('index_readings')
    .select((eb) => ['index', calendarDateOf(eb.ref('date')).as('date'), 'value'])
    .where('farm_id', '=', farmId)
    .where('field_id', '=', fieldId)
    .where('index', 'in', indices);
  if (from !== undefined) query = query.where('date', '>=', from);
  if (to !== undefined) query = query.where('date', '<=', to);
  const rows = await query.orderBy('index').orderBy('date').execute();
  for (const row of rows) history[row.index as ReadingIndex]?.push({ date: row.date, value: row.value });
  return history;
};

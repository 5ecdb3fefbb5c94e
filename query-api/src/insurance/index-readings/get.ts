import { IndexReadingList, IndexReadingsQuery, type ReadingIndex } from '@cropcover/contracts';
import { fieldLocation, organizationFieldSourceId } from '@cropcover/domain';
import { calendarDateOf } from '@cropcover/read-store';
import { queryRoute } from '../../query-route';
import { isoTimestamp } from '../../timestamps';

// A field location is `farm_id/field_id`; a field id never holds '/', so the last one splits it.
const fieldOf = (location: string): { farm_id?: string; field_id?: string } => {
  const at = location.lastIndexOf('/');
  return at < 0 ? {} : { farm_id: location.slice(0, at), field_id: location.slice(at + 1) };
};

/** The readings of one source at one location, or of one field from
 *  the caller organization's own field source; oldest date first (then by index), paginated. Sources
 *  are readable by every organization (SPEC §7), so the by-source listing is not scoped. */
export const listIndexReadings = queryRoute('GET /insurance/index-readings', {
  summary: "A field's readings",
  roles: ['data_provider', 'insurer', 'auditor'],
  request: { query: IndexReadingsQuery },
  success: { status: 200, schema: IndexReadingList, description: 'A page of readings' },
}).handle(async ({ deps, query, organizationId }) => {
  const [sourceId, location] =
    query.source_id !== undefined
      ? [query.source_id, query.location!]
      : [organizationFieldSourceId(organizationId), fieldLocation(query.farm_id!, query.field_id!)];
  let matching = deps.db
    .selectFrom('index_readings')
    .where('source_id', '=', sourceId)
    .where('location', '=', location);
  if (query.index !== undefined) matching = matching.where('index', '=', query.index);
  if (query.from !== undefined) matching = matching.where('date', '>=', query.from);
  if (query.to !== undefined) matching = matching.where('date', '<=', query.to);
  const [counted, rows] = await Promise.all([
    matching.select((eb) => eb.fn.countAll<bigint>().as('total')).executeTakeFirstOrThrow(),
    matching
      .select((eb) => [
        'source_id',
        'location',
        'index',
        calendarDateOf(eb.ref('date')).as('date'),
        'value',
        'note',
        'revision',
        'recorded_at',
      ])
      .orderBy('date')
      .orderBy('index')
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size)
      .execute(),
  ]);
  return {
    items: rows.map((row) => ({
      source_id: row.source_id,
      location: row.location,
      ...(query.source_id === undefined ? fieldOf(row.location) : {}),
      index: row.index as ReadingIndex,
      date: row.date,
      value: row.value,
      source: row.note,
      revision: row.revision,
      recorded_at: isoTimestamp(row.recorded_at),
    })),
    total: Number(counted.total),
    page: query.page,
    page_size: query.page_size,
  };
});

import { type IndexReadingList, IndexReadingsQuery, type ReadingIndex } from '@cropcover/contracts';
import { calendarDateOf } from '@cropcover/read-store';
import { parseQuery, principalOf, requireRolesInOrganization } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { QueryApiDeps } from '../../query-api-deps';
import { isoTimestamp } from '../../timestamps';

/** GET /insurance/index-readings — one field's readings, oldest date first (then by index), paginated.
 *  Readings are reference data shared by every insurer of the field, so not scoped to the organization. */
export const listIndexReadings =
  (deps: QueryApiDeps): RequestHandler =>
  async (req, res) => {
    requireRolesInOrganization(principalOf(req), 'data_provider', 'insurer', 'auditor');
    const query = parseQuery(IndexReadingsQuery, req);
    let matching = deps.db
      .selectFrom('index_readings')
      .where('farm_id', '=', query.farm_id)
      .where('field_id', '=', query.field_id);
    if (query.index !== undefined) matching = matching.where('index', '=', query.index);
    if (query.from !== undefined) matching = matching.where('date', '>=', query.from);
    if (query.to !== undefined) matching = matching.where('date', '<=', query.to);
    const [counted, rows] = await Promise.all([
      matching.select((eb) => eb.fn.countAll<bigint>().as('total')).executeTakeFirstOrThrow(),
      matching
        .select((eb) => [
          'farm_id',
          'field_id',
          'index',
          calendarDateOf(eb.ref('date')).as('date'),
          'value',
          'source',
          'revision',
          'recorded_at',
        ])
        .orderBy('date')
        .orderBy('index')
        .limit(query.page_size)
        .offset((query.page - 1) * query.page_size)
        .execute(),
    ]);
    const response: IndexReadingList = {
      items: rows.map((row) => ({
        farm_id: row.farm_id,
        field_id: row.field_id,
        index: row.index as ReadingIndex,
        date: row.date,
        value: row.value,
        source: row.source,
        revision: row.revision,
        recorded_at: isoTimestamp(row.recorded_at),
      })),
      total: Number(counted.total),
      page: query.page,
      page_size: query.page_size,
    };
    res.json(response);
  };

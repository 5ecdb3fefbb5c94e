import { IndexSourcePathParams, UnitAreaList, UnitAreasQuery } from '@cropcover/contracts';
import { unitOutline } from '@cropcover/domain';
import { sql } from 'kysely';
import { queryRoute } from '../../../../query-route';
import { isoTimestamp } from '../../../../timestamps';
import { SOURCE_READERS } from '../../index-source-view';

/** INDEX-DATA §2.4: a source's unit areas, by unit_id; polygons only when asked for (they can weigh
 *  megabytes each), an outline always. */
export const listUnitAreas = queryRoute('GET /insurance/index-sources/{source_id}/units', {
  summary: 'The unit areas of an index source, by unit_id',
  description:
    'Each unit with its bounding box, how many polygons and positions it holds and how many grid cells of the ' +
    'source it reads; its GeoJSON polygon too with polygons=true.',
  roles: SOURCE_READERS,
  request: { params: IndexSourcePathParams, query: UnitAreasQuery },
  success: { status: 200, schema: UnitAreaList, description: 'A page of unit areas' },
  problems: { 404: { description: 'No such index source', codes: ['not_found'] } },
}).handle(async ({ deps, params: { source_id }, query: { page, page_size, polygons }, refuse }) => {
  const source = await deps.db
    .selectFrom('index_sources')
    .select(['kind', 'resolution_deg'])
    .where('source_id', '=', source_id)
    .executeTakeFirst();
  if (!source) throw refuse('not_found', `No index source ${source_id}.`);
  const scope = deps.db.selectFrom('index_source_units').where('source_id', '=', source_id);
  const [rows, { total }] = await Promise.all([
    scope
      .select(['unit_id', 'name', 'polygon', 'registered_at'])
      .orderBy(sql`unit_id collate "C"`)
      .limit(page_size)
      .offset((page - 1) * page_size)
      .execute(),
    scope.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  const grid = source.kind === 'grid' ? source.resolution_deg : null;
  return {
    source_id,
    items: rows.map((row) => ({
      unit_id: row.unit_id,
      name: row.name,
      ...unitOutline(row.polygon, grid),
      registered_at: isoTimestamp(row.registered_at),
      ...(polygons ? { polygon: row.polygon } : {}),
    })),
    total: Number(total),
    page,
    page_size,
  };
});

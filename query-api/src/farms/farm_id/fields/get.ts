import { actorOf } from '@cropcover/application';
import { FarmPathParams, FieldList } from '@cropcover/contracts';
import { utcDate } from '@cropcover/domain';
import { queryRoute } from '../../../query-route';
import { isoTimestamp } from '../../../timestamps';
import { readVisibleFarm, UNKNOWN_FARM } from '../../visible-farm';

/** The fields of a farm the caller may read, oldest first. */
export const listFields = queryRoute('GET /farms/{farm_id}/fields', {
  summary: "A farm's fields",
  request: { params: FarmPathParams },
  success: { status: 200, schema: FieldList, description: 'The fields' },
  problems: { 404: UNKNOWN_FARM },
}).handle(async ({ deps, params: { farm_id }, principal }) => {
  const today = utcDate(deps.clock.now());
  await readVisibleFarm(deps.db, farm_id, actorOf(principal), { includeInactive: false, today });
  const rows = await deps.db
    .selectFrom('farm_fields')
    .selectAll()
    .where('farm_id', '=', farm_id)
    .orderBy('created_at')
    .orderBy('field_id')
    .execute();
  const items = rows.map((row) => ({
    field_id: row.field_id,
    farm_id: row.farm_id,
    name: row.name,
    area_ha: row.area_ha,
    location: { lat: row.lat, lon: row.lon },
    crop_type: row.crop_type,
    created_at: isoTimestamp(row.created_at),
  }));
  return { farm_id, items };
});

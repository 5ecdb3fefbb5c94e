import { actorOf } from '@cropcover/application';
import { FarmPathParams, type Field } from '@cropcover/contracts';
import { parseParams, principalOf } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { QueryApiDeps } from '../../../query-api-deps';
import { isoTimestamp } from '../../../timestamps';
import { readVisibleFarm } from '../../visible-farm';

/** GET /farms/{farm_id}/fields — the fields of a farm the caller may read, oldest first. */
export const listFields =
  (deps: QueryApiDeps): RequestHandler =>
  async (req, res) => {
    const { farm_id } = parseParams(FarmPathParams, req);
    await readVisibleFarm(deps.db, farm_id, actorOf(principalOf(req)), { includeInactive: false });
    const rows = await deps.db
      .selectFrom('farm_fields')
      .selectAll()
      .where('farm_id', '=', farm_id)
      .orderBy('created_at')
      .orderBy('field_id')
      .execute();
    const items: Field[] = rows.map((row) => ({
      field_id: row.field_id,
      farm_id: row.farm_id,
      name: row.name,
      area_ha: row.area_ha,
      location: { lat: row.lat, lon: row.lon },
      crop_type: row.crop_type,
      created_at: isoTimestamp(row.created_at),
    }));
    res.json({ farm_id, items });
  };

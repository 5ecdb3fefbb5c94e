import { actorOf } from '@cropcover/application';
import { FARM_ETAG_HEADER, Farm, FarmPathParams, FarmReadQuery, farmEtag } from '@cropcover/contracts';
import { utcDate } from '@cropcover/domain';
import { queryRoute } from '../../query-route';
import { farmViews } from '../farm-view';
import { readVisibleFarm, UNKNOWN_FARM } from '../visible-farm';

/** Endpoint 9, with an ETag for If-Match on PUT. */
export const getFarm = queryRoute('GET /farms/{farm_id}', {
  summary: 'Read a farm (owner, organizations with a live grant, admins)',
  request: { params: FarmPathParams, query: FarmReadQuery },
  success: { status: 200, schema: Farm, description: 'The farm', headers: FARM_ETAG_HEADER },
  problems: { 404: UNKNOWN_FARM },
}).handle(async ({ deps, params: { farm_id }, query: { include_inactive }, principal, res }) => {
  const actor = actorOf(principal);
  const today = utcDate(deps.clock.now());
  const row = await readVisibleFarm(deps.db, farm_id, actor, { includeInactive: include_inactive, today });
  const [farm] = await farmViews(deps.db, [row], actor);
  res.setHeader('ETag', farmEtag(farm!));
  return farm!;
});

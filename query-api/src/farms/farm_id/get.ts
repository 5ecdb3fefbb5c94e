import { actorOf } from '@cropcover/application';
import { FarmPathParams, FarmReadQuery, farmEtag } from '@cropcover/contracts';
import { parseParams, parseQuery, principalOf } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { QueryApiDeps } from '../../query-api-deps';
import { farmViews } from '../farm-view';
import { readVisibleFarm } from '../visible-farm';

/** GET /farms/{farm_id} — endpoint 9, with an ETag for If-Match on PUT. */
export const getFarm =
  (deps: QueryApiDeps): RequestHandler =>
  async (req, res) => {
    const { farm_id } = parseParams(FarmPathParams, req);
    const { include_inactive } = parseQuery(FarmReadQuery, req);
    const row = await readVisibleFarm(deps.db, farm_id, actorOf(principalOf(req)), {
      includeInactive: include_inactive,
    });
    const [farm] = await farmViews(deps.db, [row]);
    res.setHeader('ETag', farmEtag(farm!)).json(farm);
  };

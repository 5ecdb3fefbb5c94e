import { ProblemError, principalOf } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { QueryApiDeps } from '../../../query-api-deps';
import { farmerView } from '../../farm-view';

/** GET /farms/farmers/me — the caller's own profile. */
export const getOwnFarmerProfile =
  (deps: QueryApiDeps): RequestHandler =>
  async (req, res) => {
    const row = await deps.db
      .selectFrom('farmers')
      .selectAll()
      .where('subject', '=', principalOf(req).sub)
      .executeTakeFirst();
    if (!row) {
      throw new ProblemError({
        status: 404,
        code: 'farmer_profile_not_found',
        title: 'Not found',
        detail: 'You have no farmer profile yet: POST /farms/farmers, or create a farm.',
      });
    }
    res.json(farmerView(row));
  };

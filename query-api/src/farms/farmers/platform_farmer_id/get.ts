import { actorOf } from '@cropcover/application';
import type { FarmerLookupResult } from '@cropcover/contracts';
import { canSeeFarmer, normalizeShareableId } from '@cropcover/domain';
import { ProblemError, parseParams, principalOf } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import type { QueryApiDeps } from '../../../query-api-deps';
import { farmerView, farmViews } from '../../farm-view';

const LookupParams = z.strictObject({ platform_farmer_id: z.string().min(1).max(40) });

/** GET /farms/farmers/{platform_farmer_id} — endpoint 12: the farmer with their active farms. The owner
 *  (and admins) always; anyone else only when the farmer consented to share their data. */
export const lookUpFarmer =
  (deps: QueryApiDeps): RequestHandler =>
  async (req, res) => {
    const { platform_farmer_id } = parseParams(LookupParams, req);
    const code = normalizeShareableId('PF', platform_farmer_id);
    const farmer =
      code === undefined
        ? undefined
        : await deps.db.selectFrom('farmers').selectAll().where('platform_farmer_id', '=', code).executeTakeFirst();
    if (!farmer || !canSeeFarmer(actorOf(principalOf(req)), farmer))
      throw ProblemError.notFound(`No farmer ${platform_farmer_id} is visible to you.`);

    const farmRows = await deps.db
      .selectFrom('farms')
      .selectAll()
      .where('owner_farmer_id', '=', farmer.farmer_id)
      .where('is_active', '=', true)
      .orderBy('created_at')
      .orderBy('farm_id')
      .execute();
    const result: FarmerLookupResult = {
      ...farmerView(farmer),
      farms: await farmViews(deps.db, farmRows),
      total_farms: farmRows.length,
    };
    res.json(result);
  };

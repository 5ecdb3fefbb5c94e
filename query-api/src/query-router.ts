import { Router } from 'express';
import { honourConsistencyToken } from './consistency-token';
import { lookUpFarmer } from './farms/farmers/lookup/route';
import { getOwnFarmerProfile } from './farms/farmers/me/route';
import { listFields } from './farms/fields/list/route';
import { getFarm } from './farms/get/route';
import type { QueryApiDeps } from './query-api-deps';

/** Every read of the service; each path's code lives in the folder of the same name. */
export const createQueryRouter = (deps: QueryApiDeps): Router => {
  const router = Router();
  router.use(honourConsistencyToken(deps.consistency, deps.readYourWritesTimeoutMs));
  router.get('/farms/farmers/me', getOwnFarmerProfile(deps));
  router.get('/farms/farmers/:platform_farmer_id', lookUpFarmer(deps));
  router.get('/farms/:farm_id', getFarm(deps));
  router.get('/farms/:farm_id/fields', listFields(deps));
  return router;
};

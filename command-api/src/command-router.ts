import { Router } from 'express';
import type { CommandApiDeps } from './command-api-deps';
import { createFarm } from './farms/create/route';
import { deleteFarm } from './farms/delete/route';
import { createFarmerProfile } from './farms/farmers/create/route';
import { updateOwnFarmerProfile } from './farms/farmers/me/route';
import { registerFieldRoute } from './farms/fields/register/route';
import { updateFarmRoute } from './farms/update/route';

/** Every write of the service; each path's code lives in the folder of the same name. */
export const createCommandRouter = (deps: CommandApiDeps): Router => {
  const router = Router();
  router.post('/farms/farmers', createFarmerProfile(deps));
  router.put('/farms/farmers/me', updateOwnFarmerProfile(deps));
  router.post('/farms/create', createFarm(deps));
  router.put('/farms/:farm_id', updateFarmRoute(deps));
  router.delete('/farms/:farm_id', deleteFarm(deps));
  router.post('/farms/:farm_id/fields', registerFieldRoute(deps));
  return router;
};

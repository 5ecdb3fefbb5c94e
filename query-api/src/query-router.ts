import { Router } from 'express';
import { honourConsistencyToken } from './consistency-token';
import { lookUpFarmer } from './farms/farmers/lookup/route';
import { getOwnFarmerProfile } from './farms/farmers/me/route';
import { listFields } from './farms/fields/list/route';
import { getFarm } from './farms/get/route';
import { listIndexReadings } from './insurance/index-readings/list/route';
import { listEvaluations } from './insurance/policies/evaluations/list/route';
import { listPolicyEvents } from './insurance/policies/events/list/route';
import { getPolicy } from './insurance/policies/get/route';
import { listPolicies } from './insurance/policies/list/route';
import { listWebhookDeliveries } from './insurance/webhooks/deliveries/list/route';
import { listWebhooks } from './insurance/webhooks/list/route';
import type { QueryApiDeps } from './query-api-deps';

/** Every read of the service; each path's code lives in the folder of the same name. */
export const createQueryRouter = (deps: QueryApiDeps): Router => {
  const router = Router();
  router.use(honourConsistencyToken(deps.consistency, deps.readYourWritesTimeoutMs));
  router.get('/farms/farmers/me', getOwnFarmerProfile(deps));
  router.get('/farms/farmers/:platform_farmer_id', lookUpFarmer(deps));
  router.get('/farms/:farm_id', getFarm(deps));
  router.get('/farms/:farm_id/fields', listFields(deps));
  router.get('/insurance/policies', listPolicies(deps));
  router.get('/insurance/policies/:policy_id', getPolicy(deps));
  router.get('/insurance/policies/:policy_id/evaluations', listEvaluations(deps));
  router.get('/insurance/policies/:policy_id/events', listPolicyEvents(deps));
  router.get('/insurance/index-readings', listIndexReadings(deps));
  router.get('/insurance/webhooks', listWebhooks(deps));
  router.get('/insurance/webhooks/:webhook_id/deliveries', listWebhookDeliveries(deps));
  return router;
};

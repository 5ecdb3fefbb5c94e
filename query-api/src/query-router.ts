import { Router } from 'express';
import { honourConsistencyToken } from './consistency-token';
import { listFields } from './farms/farm_id/fields/get';
import { getFarm } from './farms/farm_id/get';
import { getOwnFarmerProfile } from './farms/farmers/me/get';
import { lookUpFarmer } from './farms/farmers/platform_farmer_id/get';
import { listIndexReadings } from './insurance/index-readings/get';
import { listIndexSources } from './insurance/index-sources/get';
import { getIndexSource } from './insurance/index-sources/source_id/get';
import { listPolicies } from './insurance/policies/get';
import { listEvaluations } from './insurance/policies/policy_id/evaluations/get';
import { listPolicyEvents } from './insurance/policies/policy_id/events/get';
import { getPolicy } from './insurance/policies/policy_id/get';
import { listWebhooks } from './insurance/webhooks/get';
import { listWebhookDeliveries } from './insurance/webhooks/webhook_id/deliveries/get';
import { getWebhook } from './insurance/webhooks/webhook_id/get';
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
  router.get('/insurance/index-sources', listIndexSources(deps));
  router.get('/insurance/index-sources/:source_id', getIndexSource(deps));
  router.get('/insurance/webhooks', listWebhooks(deps));
  router.get('/insurance/webhooks/:webhook_id', getWebhook(deps));
  router.get('/insurance/webhooks/:webhook_id/deliveries', listWebhookDeliveries(deps));
  return router;
};

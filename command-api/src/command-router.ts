import { Router } from 'express';
import type { CommandApiDeps } from './command-api-deps';
import { createFarm } from './farms/create/route';
import { deleteFarm } from './farms/delete/route';
import { createFarmerProfile } from './farms/farmers/create/route';
import { updateOwnFarmerProfile } from './farms/farmers/me/route';
import { registerFieldRoute } from './farms/fields/register/route';
import { updateFarmRoute } from './farms/update/route';
import { idempotencyKey } from './idempotency/idempotency-key';
import { recordIndexReadingsRoute } from './insurance/index-readings/record/route';
import { settlePayoutRoute } from './insurance/payouts/settle/route';
import { evaluatePolicyRoute } from './insurance/policies/evaluate/route';
import { issuePolicyRoute } from './insurance/policies/issue/route';
import { lapsePolicyRoute } from './insurance/policies/lapse/route';
import { quoteRoute } from './insurance/quote/route';
import { deactivateWebhookSubscriptionRoute } from './insurance/webhooks/deactivate/route';
import { createWebhookSubscriptionRoute } from './insurance/webhooks/trigger-events/route';

/** Every write of the service; each path's code lives in the folder of the same name. */
export const createCommandRouter = (deps: CommandApiDeps): Router => {
  const router = Router();
  router.use(idempotencyKey(deps));
  router.post('/farms/farmers', createFarmerProfile(deps));
  router.put('/farms/farmers/me', updateOwnFarmerProfile(deps));
  router.post('/farms/create', createFarm(deps));
  router.put('/farms/:farm_id', updateFarmRoute(deps));
  router.delete('/farms/:farm_id', deleteFarm(deps));
  router.post('/farms/:farm_id/fields', registerFieldRoute(deps));
  router.post('/insurance/quote', quoteRoute(deps));
  router.post('/insurance/policies', issuePolicyRoute(deps));
  router.post('/insurance/policies/:policy_id/evaluate', evaluatePolicyRoute(deps));
  router.post('/insurance/policies/:policy_id/lapse', lapsePolicyRoute(deps));
  router.post('/insurance/payouts/:payout_id/settle', settlePayoutRoute(deps));
  router.post('/insurance/index-readings', recordIndexReadingsRoute(deps));
  router.post('/insurance/webhooks/trigger-events', createWebhookSubscriptionRoute(deps));
  router.delete('/insurance/webhooks/:webhook_id', deactivateWebhookSubscriptionRoute(deps));
  return router;
};

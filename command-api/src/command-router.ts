import { Router } from 'express';
import type { CommandApiDeps } from './command-api-deps';
import { deleteFarm } from './farms/[farm_id]/delete';
import { registerFieldRoute } from './farms/[farm_id]/fields/post';
import { updateFarmRoute } from './farms/[farm_id]/put';
import { createFarm } from './farms/create/post';
import { updateOwnFarmerProfile } from './farms/farmers/me/put';
import { createFarmerProfile } from './farms/farmers/post';
import { idempotencyKey } from './idempotency/idempotency-key';
import { recordIndexReadingsRoute } from './insurance/index-readings/post';
import { settlePayoutRoute } from './insurance/payouts/[payout_id]/settle/post';
import { evaluatePolicyRoute } from './insurance/policies/[policy_id]/evaluate/post';
import { lapsePolicyRoute } from './insurance/policies/[policy_id]/lapse/post';
import { issuePolicyRoute } from './insurance/policies/post';
import { quoteRoute } from './insurance/quote/post';
import { deactivateWebhookSubscriptionRoute } from './insurance/webhooks/[webhook_id]/delete';
import { createWebhookSubscriptionRoute } from './insurance/webhooks/trigger-events/post';

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

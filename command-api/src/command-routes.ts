import { type Route, tagged } from '@cropcover/runtime';
import type { CommandApiDeps } from './command-api-deps';
import { createFarm } from './farms/create/post';
import { revokeFarmAccessRoute } from './farms/farm_id/access/organization_id/delete';
import { grantFarmAccessRoute } from './farms/farm_id/access/post';
import { deleteFarm } from './farms/farm_id/delete';
import { registerFieldRoute } from './farms/farm_id/fields/post';
import { updateFarmRoute } from './farms/farm_id/put';
import { claimFarmerProfileRoute } from './farms/farmers/claim/post';
import { eraseOwnFarmerProfile } from './farms/farmers/me/erase/post';
import { updateOwnFarmerProfile } from './farms/farmers/me/put';
import { eraseFarmerProfile } from './farms/farmers/platform_farmer_id/erase/post';
import { createFarmerProfile } from './farms/farmers/post';
import { registerFarmerRoute } from './farms/registrations/post';
import { recordIndexReadingsRoute } from './insurance/index-readings/post';
import { registerIndexSourceRoute } from './insurance/index-sources/post';
import { requestClimatologyRoute } from './insurance/index-sources/source_id/climatologies/post';
import { ingestIndexFileRoute } from './insurance/index-sources/source_id/files/post';
import { updateIndexSourceRoute } from './insurance/index-sources/source_id/patch';
import { registerUnitAreasRoute } from './insurance/index-sources/source_id/units/post';
import { settlePayoutRoute } from './insurance/payouts/payout_id/settle/post';
import { evaluatePolicyRoute } from './insurance/policies/policy_id/evaluate/post';
import { lapsePolicyRoute } from './insurance/policies/policy_id/lapse/post';
import { issuePolicyRoute } from './insurance/policies/post';
import { requestProductBacktestRoute } from './insurance/products/backtest/post';
import { payoutCurveRoute } from './insurance/products/payout-curve/post';
import { registerProductRoute } from './insurance/products/post';
import { registerProductVersionRoute } from './insurance/products/product_id/versions/post';
import { retireProductVersionRoute } from './insurance/products/product_id/versions/version/retire/post';
import { validateProductSheetRoute } from './insurance/products/validate/post';
import { createProgrammeRoute } from './insurance/programmes/post';
import { requestPortfolioBacktestRoute } from './insurance/programmes/programme_id/backtests/post';
import { updateProgrammeRoute } from './insurance/programmes/programme_id/patch';
import { bindTreatyRoute } from './insurance/programmes/programme_id/treaties/post';
import { quoteRoute } from './insurance/quote/post';
import { createWebhookSubscriptionRoute } from './insurance/webhooks/trigger-events/post';
import { deactivateWebhookSubscriptionRoute } from './insurance/webhooks/webhook_id/delete';

/** Every write of the service, each declared in the folder of its path, grouped by the tag the OpenAPI
 *  document shows it under. The router and the document are built from this list alone. */
export const commandRoutes: readonly Route<CommandApiDeps>[] = [
  ...tagged('Farm registry', [
    createFarmerProfile,
    updateOwnFarmerProfile,
    registerFarmerRoute,
    claimFarmerProfileRoute,
    eraseOwnFarmerProfile,
    eraseFarmerProfile,
    createFarm,
    updateFarmRoute,
    deleteFarm,
    grantFarmAccessRoute,
    revokeFarmAccessRoute,
    registerFieldRoute,
  ]),
  ...tagged('Insurance', [
    quoteRoute,
    issuePolicyRoute,
    evaluatePolicyRoute,
    lapsePolicyRoute,
    settlePayoutRoute,
    recordIndexReadingsRoute,
  ]),
  ...tagged('Products', [
    registerProductRoute,
    validateProductSheetRoute,
    payoutCurveRoute,
    requestProductBacktestRoute,
    registerProductVersionRoute,
    retireProductVersionRoute,
  ]),
  ...tagged('Index data', [
    registerIndexSourceRoute,
    updateIndexSourceRoute,
    ingestIndexFileRoute,
    registerUnitAreasRoute,
    requestClimatologyRoute,
  ]),
  ...tagged('Programmes and reinsurance', [
    createProgrammeRoute,
    updateProgrammeRoute,
    bindTreatyRoute,
    requestPortfolioBacktestRoute,
  ]),
  ...tagged('Webhooks', [createWebhookSubscriptionRoute, deactivateWebhookSubscriptionRoute]),
];

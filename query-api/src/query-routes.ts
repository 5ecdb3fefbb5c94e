import { type Route, tagged } from '@cropcover/runtime';
import { getLatestCheckpoint } from './audit/checkpoints/latest/get';
import { getCheckpointOfSize } from './audit/checkpoints/size/get';
import { listAuditKeys } from './audit/keys/get';
import { listAuditLeaves } from './audit/leaves/get';
import { getConsistencyProof } from './audit/proofs/consistency/get';
import { getInclusionProof } from './audit/proofs/inclusion/get';
import { listFarmAccess } from './farms/farm_id/access/get';
import { listFields } from './farms/farm_id/fields/get';
import { getFarm } from './farms/farm_id/get';
import { getOwnFarmerProfile } from './farms/farmers/me/get';
import { lookUpFarmer } from './farms/farmers/platform_farmer_id/get';
import { listIndexReadings } from './insurance/index-readings/get';
import { listIndexSources } from './insurance/index-sources/get';
import { getClimatology } from './insurance/index-sources/source_id/climatologies/name/get';
import { getClimatologyJob } from './insurance/index-sources/source_id/climatologies/name/jobs/job_id/get';
import { getClimatologyVersion } from './insurance/index-sources/source_id/climatologies/name/versions/version/get';
import { getIndexFileIngestion } from './insurance/index-sources/source_id/files/ingestion_id/get';
import { getIndexSource } from './insurance/index-sources/source_id/get';
import { listUnitAreas } from './insurance/index-sources/source_id/units/get';
import { listPolicies } from './insurance/policies/get';
import { listEvaluations } from './insurance/policies/policy_id/evaluations/get';
import { listPolicyEvents } from './insurance/policies/policy_id/events/get';
import { getPolicy } from './insurance/policies/policy_id/get';
import { listTriggerCourses } from './insurance/policies/policy_id/trigger-courses/get';
import { getProductBacktest } from './insurance/products/backtests/job_id/get';
import { listProducts } from './insurance/products/get';
import { getProduct } from './insurance/products/product_id/get';
import { getProductVersion } from './insurance/products/product_id/versions/version/get';
import { listProgrammesRoute } from './insurance/programmes/get';
import { getPortfolioBacktest } from './insurance/programmes/programme_id/backtests/job_id/get';
import { listCessions } from './insurance/programmes/programme_id/cessions/get';
import { getProgrammeExposure } from './insurance/programmes/programme_id/exposure/get';
import { getProgramme } from './insurance/programmes/programme_id/get';
import { getProgrammeResults } from './insurance/programmes/programme_id/results/get';
import { listTreaties } from './insurance/programmes/programme_id/treaties/get';
import { listWebhooks } from './insurance/webhooks/get';
import { listWebhookDeliveries } from './insurance/webhooks/webhook_id/deliveries/get';
import { getWebhook } from './insurance/webhooks/webhook_id/get';
import type { QueryApiDeps } from './query-api-deps';

/** Every read of the service, each declared in the folder of its path, grouped by the tag the OpenAPI
 *  document shows it under. The router and the document are built from this list alone. */
export const queryRoutes: readonly Route<QueryApiDeps>[] = [
  ...tagged('Farm registry', [getOwnFarmerProfile, lookUpFarmer, getFarm, listFields, listFarmAccess]),
  ...tagged('Insurance', [
    listPolicies,
    getPolicy,
    listEvaluations,
    listPolicyEvents,
    listTriggerCourses,
    listIndexReadings,
  ]),
  ...tagged('Products', [listProducts, getProductBacktest, getProduct, getProductVersion]),
  ...tagged('Index data', [
    listIndexSources,
    getIndexSource,
    listUnitAreas,
    getIndexFileIngestion,
    getClimatology,
    getClimatologyVersion,
    getClimatologyJob,
  ]),
  ...tagged('Webhooks', [listWebhooks, getWebhook, listWebhookDeliveries]),
  ...tagged('Programmes and reinsurance', [
    listProgrammesRoute,
    getProgramme,
    getProgrammeExposure,
    listTreaties,
    getProgrammeResults,
    listCessions,
    getPortfolioBacktest,
  ]),
  ...tagged('Audit', [
    listAuditKeys,
    getLatestCheckpoint,
    getCheckpointOfSize,
    getInclusionProof,
    getConsistencyProof,
    listAuditLeaves,
  ]),
];

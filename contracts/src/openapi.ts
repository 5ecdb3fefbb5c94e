import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { ProblemDetails } from './common';
import {
  EvaluateRequest,
  EvaluationHistory,
  EvaluationHistoryQuery,
  EvaluationResult,
  IndexReadingList,
  IndexReadingsQuery,
  IndexReadingsRequest,
  IndexReadingsResponse,
  IndexSource,
  IndexSourceList,
  IndexSourcePathParams,
  IndexSourceRegisterRequest,
  IndexSourcesQuery,
  LapseRequest,
  Payout,
  PayoutPathParams,
  Policy,
  PolicyEventPage,
  PolicyEventsQuery,
  PolicyIssueRequest,
  PolicyList,
  PolicyListQuery,
  PolicyPathParams,
  PolicyTriggerCourses,
  Quote,
  QuoteRequest,
} from './insurance';
import { applyOperationConventions } from './openapi-conventions';
import {
  Farm,
  FarmCreateRequest,
  FarmerCreateRequest,
  FarmerLookupResult,
  FarmerProfile,
  FarmerUpdateRequest,
  FarmPathParams,
  FarmReadQuery,
  FarmUpdateRequest,
  Field,
  FieldList,
  FieldRegisterRequest,
} from './registry';
import {
  CreatedWebhookSubscription,
  TriggerBreachedDelivery,
  WebhookCreateRequest,
  WebhookDeliveriesQuery,
  WebhookDeliveryList,
  WebhookList,
  WebhookListQuery,
  WebhookPathParams,
  WebhookSubscription,
} from './webhooks';
import { z } from './zod';

// The OpenAPI document is generated from the same zod schemas that validate requests, so the docs
// cannot drift from what the service accepts.

const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ProblemDetails } },
});
/** A farm answer carries its version as a strong ETag, the precondition If-Match names. */
const versionedFarm = (description: string) => ({
  ...json(Farm, description),
  headers: {
    ETag: { description: "The farm's version, for If-Match on a later PUT", schema: { type: 'string' as const } },
  },
});
const commonErrors = {
  400: problem('Malformed JSON, wrong types, unknown fields or values'),
  401: problem('Missing, expired, malformed or wrongly signed bearer token'),
  429: problem('Rate limit exceeded; see Retry-After'),
};
const body = (schema: z.ZodType) => ({ body: { content: { 'application/json': { schema } }, required: true } });
const PlatformFarmerIdParams = z.strictObject({ platform_farmer_id: z.string() });

const registerRegistryRoutes = (registry: OpenAPIRegistry): void => {
  registry.registerPath({
    method: 'post',
    path: '/farms/farmers',
    tags: ['Farm registry'],
    summary: "Create the caller's farmer profile",
    request: body(FarmerCreateRequest),
    responses: { 201: json(FarmerProfile, 'Created'), 409: problem('Profile exists'), ...commonErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/farms/farmers/me',
    tags: ['Farm registry'],
    summary: "The caller's farmer profile",
    responses: { 200: json(FarmerProfile, 'The profile'), 404: problem('No profile yet'), ...commonErrors },
  });
  registry.registerPath({
    method: 'put',
    path: '/farms/farmers/me',
    tags: ['Farm registry'],
    summary: "Update the caller's farmer profile (omitted fields stay, null clears)",
    request: body(FarmerUpdateRequest),
    responses: { 200: json(FarmerProfile, 'Updated'), 404: problem('No profile yet'), ...commonErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/farms/farmers/{platform_farmer_id}',
    tags: ['Farm registry'],
    summary: 'Look up a farmer with their active farms by the shareable id (owner, or consent given)',
    request: { params: PlatformFarmerIdParams },
    responses: { 200: json(FarmerLookupResult, 'The farmer'), 404: problem('Unknown or not shared'), ...commonErrors },
  });
  registry.registerPath({
    method: 'post',
    path: '/farms/create',
    tags: ['Farm registry'],
    summary: 'Register a farm owned by the caller',
    request: body(FarmCreateRequest),
    responses: {
      201: versionedFarm('Created'),
      413: problem('Body over 1 MiB'),
      415: problem('Not JSON'),
      ...commonErrors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/farms/{farm_id}',
    tags: ['Farm registry'],
    summary: 'Read a farm (owner, linked organizations, admins)',
    request: { params: FarmPathParams, query: FarmReadQuery },
    responses: {
      200: versionedFarm('The farm'),
      404: problem('Unknown or invisible'),
      ...commonErrors,
    },
  });
  registry.registerPath({
    method: 'put',
    path: '/farms/{farm_id}',
    tags: ['Farm registry'],
    summary: 'Update a farm (owner or admin); updated_at or If-Match guard against lost updates',
    request: { params: FarmPathParams, ...body(FarmUpdateRequest) },
    responses: {
      200: versionedFarm('Updated'),
      404: problem('Unknown, inactive or invisible'),
      409: problem('version_conflict: the body updated_at is stale'),
      412: problem('precondition_failed: If-Match names another version'),
      ...commonErrors,
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/farms/{farm_id}',
    tags: ['Farm registry'],
    summary: 'Soft-delete a farm (owner or admin)',
    request: { params: FarmPathParams },
    responses: { 204: { description: 'Deactivated' }, 404: problem('Unknown, inactive or invisible'), ...commonErrors },
  });
  registry.registerPath({
    method: 'post',
    path: '/farms/{farm_id}/fields',
    tags: ['Farm registry'],
    summary: 'Register a field of a farm (owner or admin)',
    request: { params: FarmPathParams, ...body(FieldRegisterRequest) },
    responses: {
      201: json(Field, 'Created'),
      404: problem('Unknown farm'),
      409: problem('field_exists'),
      ...commonErrors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/farms/{farm_id}/fields',
    tags: ['Farm registry'],
    summary: "A farm's fields",
    request: { params: FarmPathParams },
    responses: { 200: json(FieldList, 'The fields'), 404: problem('Unknown or invisible farm'), ...commonErrors },
  });
};

const registerInsuranceRoutes = (registry: OpenAPIRegistry): void => {
  const insurance = ['Insurance'];
  const forbidden = problem('Missing role, or no org_id in the token');
  const notFound = problem("Unknown, or another organization's");
  registry.registerPath({
    method: 'post',
    path: '/insurance/quote',
    tags: insurance,
    summary: 'Price a cover (endpoint 1); quote and issue price identically',
    request: body(QuoteRequest),
    responses: {
      200: json(Quote, 'The quote'),
      403: forbidden,
      404: problem('Unknown farm'),
      422: problem('farm_inactive, invalid_amount'),
      ...commonErrors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/insurance/policies',
    tags: insurance,
    summary: "The organization's policies (endpoint 2), newest first; filters combine with AND",
    request: { query: PolicyListQuery },
    responses: { 200: json(PolicyList, 'A page of policies'), 403: forbidden, ...commonErrors },
  });
  registry.registerPath({
    method: 'post',
    path: '/insurance/policies',
    tags: insurance,
    summary: 'Issue a policy (endpoint 3) with its trigger terms frozen',
    request: body(PolicyIssueRequest),
    responses: {
      201: json(Policy, 'Issued'),
      403: forbidden,
      404: problem('Unknown farm'),
      422: problem('invalid_term, retroactive_cover, farm_inactive, invalid_amount'),
      ...commonErrors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/insurance/policies/{policy_id}',
    tags: insurance,
    summary: 'A policy with the live status of each trigger (endpoint 4)',
    request: { params: PolicyPathParams },
    responses: { 200: json(Policy, 'The policy'), 403: forbidden, 404: notFound, ...commonErrors },
  });
  registry.registerPath({
    method: 'post',
    path: '/insurance/policies/{policy_id}/evaluate',
    tags: insurance,
    summary: 'Evaluate the triggers now, or as of a past date as a backtest (endpoint 5)',
    request: { params: PolicyPathParams, body: { content: { 'application/json': { schema: EvaluateRequest } } } },
    responses: {
      200: json(EvaluationResult, 'The evaluation'),
      403: forbidden,
      404: notFound,
      409: problem('concurrency_conflict: retry'),
      422: problem('as_of_in_future, policy_not_evaluable, policy_closed'),
      ...commonErrors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/insurance/policies/{policy_id}/evaluations',
    tags: insurance,
    summary: 'Evaluation history, newest first (endpoint 7)',
    request: { params: PolicyPathParams, query: EvaluationHistoryQuery },
    responses: { 200: json(EvaluationHistory, 'A page of history'), 403: forbidden, 404: notFound, ...commonErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/insurance/policies/{policy_id}/events',
    tags: insurance,
    summary: "The policy's event stream in order, for auditors",
    request: { params: PolicyPathParams, query: PolicyEventsQuery },
    responses: { 200: json(PolicyEventPage, 'A page of events'), 403: forbidden, 404: notFound, ...commonErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/insurance/policies/{policy_id}/trigger-courses',
    tags: insurance,
    summary: "Each cover's aggregate on each day of its window so far, with its trigger, exit and data source",
    request: { params: PolicyPathParams },
    responses: {
      200: json(PolicyTriggerCourses, 'The courses, one per cover'),
      403: forbidden,
      404: notFound,
      ...commonErrors,
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/insurance/policies/{policy_id}/lapse',
    tags: insurance,
    summary: 'Lapse an active policy that has paid nothing (premium not paid)',
    request: { params: PolicyPathParams, ...body(LapseRequest) },
    responses: {
      200: json(Policy, 'Lapsed'),
      403: forbidden,
      404: notFound,
      422: problem('policy_not_lapsable'),
      ...commonErrors,
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/insurance/payouts/{payout_id}/settle',
    tags: insurance,
    summary: 'Mark an approved payout as settled',
    request: { params: PayoutPathParams },
    responses: { 200: json(Payout, 'Settled'), 403: forbidden, 404: notFound, ...commonErrors },
  });
  registry.registerPath({
    method: 'post',
    path: '/insurance/index-readings',
    tags: insurance,
    summary: 'Record index readings (up to 10,000, all or nothing; earlier values kept as revisions)',
    request: body(IndexReadingsRequest),
    responses: {
      200: json(IndexReadingsResponse, 'Recorded'),
      403: forbidden,
      422: problem('reading_in_future'),
      ...commonErrors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/insurance/index-readings',
    tags: insurance,
    summary: "A field's readings",
    request: { query: IndexReadingsQuery },
    responses: { 200: json(IndexReadingList, 'A page of readings'), 403: forbidden, ...commonErrors },
  });
};

const registerIndexSourceRoutes = (registry: OpenAPIRegistry): void => {
  const sources = ['Index data'];
  const anyRole = problem('No role, or no org_id in the token');
  registry.registerPath({
    method: 'post',
    path: '/insurance/index-sources',
    tags: sources,
    summary: "Register a source of index data (station, grid or field) for the caller's organization",
    description:
      'Roles data_provider or admin. Only the owning organization writes its readings. A grid resolution must ' +
      'divide 180° into whole cells (at most 6 decimals); cells tile from (−90, −180) and a point on an edge ' +
      'belongs to the cell north or east of it. A field reads the nearest station within radius_km ' +
      '(default 25), ties to the smaller station_id.',
    request: body(IndexSourceRegisterRequest),
    responses: {
      201: json(IndexSource, 'Registered; Location names it'),
      403: problem('Not a data provider, or no org_id in the token'),
      ...commonErrors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/insurance/index-sources',
    tags: sources,
    summary: "Every organization's index sources, newest first; filters combine with AND",
    request: { query: IndexSourcesQuery },
    responses: { 200: json(IndexSourceList, 'A page of sources'), 403: anyRole, ...commonErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/insurance/index-sources/{source_id}',
    tags: sources,
    summary: 'One index source, whoever registered it',
    request: { params: IndexSourcePathParams },
    responses: {
      200: json(IndexSource, 'The source'),
      403: anyRole,
      404: problem('No such index source'),
      ...commonErrors,
    },
  });
};

const registerWebhookRoutes = (registry: OpenAPIRegistry): void => {
  const webhooks = ['Webhooks'];
  const insurerOnly = problem('Not an insurer, or no org_id in the token');
  const unknownWebhook = problem('No such webhook subscription in your organization');
  registry.registerPath({
    method: 'post',
    path: '/insurance/webhooks/trigger-events',
    tags: webhooks,
    summary: 'Subscribe a receiver to trigger.breached (endpoint 6); the signing secret is shown only here',
    description:
      'Deliveries are POSTed as Standard Webhooks: headers webhook-id (the event id, stable across retries), ' +
      'webhook-timestamp (unix seconds) and webhook-signature (`v1,` + base64 HMAC-SHA256 over ' +
      '`{id}.{timestamp}.{body}` with the secret). 2xx is delivered; anything else is retried after 5 s, 5 min, ' +
      '30 min, 2 h, 5 h, 10 h and 10 h; 410 deactivates the subscription. Redirects are not followed.',
    request: body(WebhookCreateRequest),
    responses: { 201: json(CreatedWebhookSubscription, 'Subscribed'), 403: insurerOnly, ...commonErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/insurance/webhooks',
    tags: webhooks,
    summary: "The organization's webhook subscriptions, newest first (never the secret)",
    request: { query: WebhookListQuery },
    responses: { 200: json(WebhookList, 'A page of subscriptions'), 403: insurerOnly, ...commonErrors },
  });
  registry.registerPath({
    method: 'delete',
    path: '/insurance/webhooks/{webhook_id}',
    tags: webhooks,
    summary: 'Deactivate a subscription; pending deliveries are abandoned',
    request: { params: WebhookPathParams },
    responses: { 204: { description: 'Deactivated' }, 403: insurerOnly, 404: unknownWebhook, ...commonErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/insurance/webhooks/{webhook_id}',
    tags: webhooks,
    summary: 'One subscription of the caller organization, active or not (never the secret)',
    request: { params: WebhookPathParams },
    responses: {
      200: json(WebhookSubscription, 'The subscription'),
      403: insurerOnly,
      404: unknownWebhook,
      ...commonErrors,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/insurance/webhooks/{webhook_id}/deliveries',
    tags: webhooks,
    summary: 'Deliveries to a subscription, newest first, with every attempt',
    request: { params: WebhookPathParams, query: WebhookDeliveriesQuery },
    responses: {
      200: json(WebhookDeliveryList, 'A page of deliveries'),
      403: insurerOnly,
      404: unknownWebhook,
      ...commonErrors,
    },
  });
  registry.register('TriggerBreachedDelivery', TriggerBreachedDelivery);
  // What CropCover sends to a subscription's URL (OpenAPI 3.1 webhooks; Standard Webhooks signing).
  registry.registerWebhook({
    method: 'post',
    path: 'trigger.breached',
    operationId: 'triggerBreached',
    tags: webhooks,
    summary: 'A trigger breached on a policy of your organization, with its payout if any',
    request: {
      headers: z.object({
        'webhook-id': z.string().openapi({ description: 'The event id: the same on every retry; dedupe on it.' }),
        'webhook-timestamp': z.string().openapi({ description: 'Unix seconds when this attempt was signed.' }),
        'webhook-signature': z
          .string()
          .openapi({ description: 'v1,<base64 HMAC-SHA256(secret, "{id}.{timestamp}.{body}")>' }),
      }),
      body: { content: { 'application/json': { schema: TriggerBreachedDelivery } }, required: true },
    },
    responses: {
      200: { description: 'Any 2xx: delivered' },
      410: { description: 'The subscription is deactivated; nothing more is sent to it' },
    },
  });
};

export const buildOpenApiDocument = (version: string): ReturnType<OpenApiGeneratorV31['generateDocument']> => {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  registerRegistryRoutes(registry);
  registerInsuranceRoutes(registry);
  registerIndexSourceRoutes(registry);
  registerWebhookRoutes(registry);
  applyOperationConventions(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'CropCover API',
      version,
      description: 'Parametric multi-peril crop insurance and farm registry. Errors are RFC 9457 problem details.',
      // No licence has been granted for the API or the software: all rights reserved.
      license: { name: 'Proprietary' },
    },
    // Relative: the document is served by the service it describes, whatever host and port that is.
    servers: [{ url: '/', description: 'The service serving this document' }],
    security: [{ bearer: [] }],
  });
};

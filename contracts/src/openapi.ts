import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { ProblemDetails } from './common';
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
      201: json(Farm, 'Created'),
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
      200: json(Farm, 'The farm; ETag for If-Match'),
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
      200: json(Farm, 'Updated'),
      404: problem('Unknown, inactive or invisible'),
      409: problem('version_conflict: updated_at or If-Match is stale'),
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

export const buildOpenApiDocument = (version: string): ReturnType<OpenApiGeneratorV31['generateDocument']> => {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  registerRegistryRoutes(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'CropCover API',
      version,
      description: 'Parametric multi-peril crop insurance and farm registry. Errors are RFC 9457 problem details.',
    },
    security: [{ bearer: [] }],
  });
};

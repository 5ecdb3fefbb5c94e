import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { RouteContract } from './http-api/route-contract';
import { routeOperation } from './http-api/route-operation';
import { registerTriggerBreachedWebhook } from './webhooks/trigger-breached-webhook';

// The OpenAPI document is generated from the route declarations, whose zod schemas are the ones requests
// are validated with, so the docs cannot drift from what the service accepts. Each path's operation is
// declared beside its handler (command-api, query-api), never here.

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

export const buildOpenApiDocument = (version: string, routes: readonly RouteContract[]): OpenApiDocument => {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  for (const route of routes) registry.registerPath(routeOperation(route));
  registerTriggerBreachedWebhook(registry);
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

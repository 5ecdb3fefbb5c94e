import { commandRoutes } from '@cropcover/command-api';
import { buildOpenApiDocument, type OpenApiDocument } from '@cropcover/contracts';
import { queryRoutes } from '@cropcover/query-api';

/** The document `/openapi.json` serves: every route of both APIs, from their declarations. */
export const openApiDocument = (version: string): OpenApiDocument =>
  buildOpenApiDocument(version, [...commandRoutes, ...queryRoutes]);

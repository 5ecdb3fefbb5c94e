import type { RouteDeclaration } from '@cropcover/contracts';
import { type DeclaredRoute, declareRoute } from '@cropcover/runtime';
import type { QueryApiDeps } from './query-api-deps';

/** A read of the query API (every GET):
 *  `queryRoute('GET /farms/{farm_id}', { summary, roles, request, success, problems }).handle(handler)`,
 *  declared in the file of its path (`farms/farm_id/get.ts`) and listed in `query-routes.ts`. */
export const queryRoute = <const C extends RouteDeclaration>(
  operation: `GET /${string}`,
  declaration: C,
): DeclaredRoute<QueryApiDeps, C> => declareRoute<QueryApiDeps, C>(operation, declaration);

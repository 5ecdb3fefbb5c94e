import type { RouteContract } from '@cropcover/contracts';
import { declareRoute, type Route, type RouteHandler } from '@cropcover/runtime';
import type { QueryApiDeps } from './query-api-deps';

/** A route of the query API: every GET. Declare it in the folder of its path (`farms/farm_id/get.ts` is
 *  `GET /farms/{farm_id}`) and list it in `query-routes.ts`. */
export const queryRoute = <const C extends RouteContract & { readonly method: 'get' }>(
  contract: C,
  handler: RouteHandler<QueryApiDeps, C>,
): Route<QueryApiDeps> => declareRoute<QueryApiDeps, C>(contract, handler);

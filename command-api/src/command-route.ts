import type { RouteContract } from '@cropcover/contracts';
import { declareRoute, type Route, type RouteHandler, type RouteOptions } from '@cropcover/runtime';
import type { CommandApiDeps } from './command-api-deps';

/** A route of the command API: every write (POST, PUT, PATCH, DELETE); reads are the query API's. Declare it
 *  in the folder of its path (`farms/farm_id/fields/post.ts` is `POST /farms/{farm_id}/fields`) and list it
 *  in `command-routes.ts`. */
export const commandRoute = <const C extends RouteContract & { readonly method: 'post' | 'put' | 'patch' | 'delete' }>(
  contract: C,
  handler: RouteHandler<CommandApiDeps, C>,
  options?: RouteOptions<CommandApiDeps>,
): Route<CommandApiDeps> => declareRoute<CommandApiDeps, C>(contract, handler, options);

/** A write through `handleCommand` that kept losing the race for its stream answers this (refusal-to-problem.ts). */
export const KEPT_CHANGING = {
  description: 'concurrency_conflict: the resource kept changing under this request; retry it',
  codes: ['concurrency_conflict'],
} as const;

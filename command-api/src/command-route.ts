import type { Operation, RouteDeclaration } from '@cropcover/contracts';
import { type DeclaredRoute, declareRoute } from '@cropcover/runtime';
import type { CommandApiDeps } from './command-api-deps';

/** A write of the command API (every method but GET; reads are the query API's):
 *  `commandRoute('POST /farms/{farm_id}/fields', { summary, roles, request, success, problems }).handle(handler)`,
 *  declared in the file of its path and method (`farms/farm_id/fields/post.ts`) and listed in
 *  `command-routes.ts`. */
export const commandRoute = <const C extends RouteDeclaration>(
  operation: Exclude<Operation, `GET ${string}`>,
  declaration: C,
): DeclaredRoute<CommandApiDeps, C> => declareRoute<CommandApiDeps, C>(operation, declaration);

/** A write through `handleCommand` that kept losing the race for its stream answers this (refusal-to-problem.ts). */
export const KEPT_CHANGING = {
  description: 'concurrency_conflict: the resource kept changing under this request; retry it',
  codes: ['concurrency_conflict'],
} as const;

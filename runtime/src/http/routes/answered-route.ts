import { mayAnswer, type RouteContract } from '@cropcover/contracts';
import type { Request } from 'express';
import type { ProblemError } from '../problem';

// Which declared route a request reached, so the problem handler can tell a problem the route declares
// from one it does not: the latter is a gap in the declaration (and in the OpenAPI document), logged as
// an error under UNDECLARED_PROBLEM. The answer itself goes out unchanged.

export const UNDECLARED_PROBLEM = 'a route answered a problem its declaration does not list';

const routes = new WeakMap<Request, RouteContract>();

export const rememberRoute = (req: Request, route: RouteContract): void => {
  routes.set(req, route);
};

/** The declared route and what it answered, when the route does not declare that problem. */
export const undeclaredProblem = (
  req: Request,
  problem: ProblemError,
): { method: string; path: string; status: number; code: string } | undefined => {
  const route = routes.get(req);
  if (!route || mayAnswer(route, problem.status, problem.code)) return undefined;
  return { method: route.method.toUpperCase(), path: route.path, status: problem.status, code: problem.code };
};

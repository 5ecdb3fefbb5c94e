import type { Request } from 'express';

// The router assigns `req.route` when a route matches, while `req.baseUrl` still holds the mount path
// of the router that owns it; by the time the response finishes an error may have unwound baseUrl.
// Capturing both at assignment gives the full pattern (`/insurance/policies/:policy_id`). Metrics label
// by it and server spans are named by it, both to keep names bounded.

const patterns = new WeakMap<Request, () => string | undefined>();

const recordRoutePattern = (req: Request): (() => string | undefined) => {
  let pattern: string | undefined;
  let route: unknown;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: { path?: unknown } | undefined) => {
      route = value;
      if (typeof value?.path === 'string') pattern = `${req.baseUrl}${value.path}`;
    },
  });
  return () => pattern;
};

/** Reads the request's route pattern once routing is done; undefined when no route matched. Call it
 *  before routing starts. */
export const routePatternOf = (req: Request): (() => string | undefined) => {
  const known = patterns.get(req);
  if (known) return known;
  const recorded = recordRoutePattern(req);
  patterns.set(req, recorded);
  return recorded;
};

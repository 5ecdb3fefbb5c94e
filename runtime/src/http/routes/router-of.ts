import { Router } from 'express';
import type { Route } from './route';

// The express router of a list of declared routes: nothing else registers a path.

/** `/farms/{farm_id}` → `/farms/:farm_id`. */
export const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

const paramCount = (path: string): number => path.split('{').length - 1;

/** Fixed segments before parameters (`/farms/farmers/me` before `/farms/farmers/{platform_farmer_id}`),
 *  whatever order the list is in. */
const matchingOrder = <Deps>(routes: readonly Route<Deps>[]): Route<Deps>[] =>
  [...routes].sort((a, b) => paramCount(a.path) - paramCount(b.path));

export const routerOf = <Deps>(routes: readonly Route<Deps>[], deps: Deps): Router => {
  const seen = new Set<string>();
  const router = Router();
  for (const route of matchingOrder(routes)) {
    const operation = `${route.method.toUpperCase()} ${route.path}`;
    if (seen.has(operation)) throw new Error(`${operation} is declared twice`);
    seen.add(operation);
    router[route.method](expressPath(route.path), route.serve(deps));
  }
  return router;
};

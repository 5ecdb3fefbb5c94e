import { routerOf } from '@cropcover/runtime';
import { Router } from 'express';
import { honourConsistencyToken } from './consistency-token';
import type { QueryApiDeps } from './query-api-deps';
import { queryRoutes } from './query-routes';

/** Every read of the service, each waiting first for the Consistency-Token it carries. */
export const createQueryRouter = (deps: QueryApiDeps): Router => {
  const router = Router();
  router.use(honourConsistencyToken(deps.consistency, deps.readYourWritesTimeoutMs, deps.eventStore));
  router.use(routerOf(queryRoutes, deps));
  return router;
};

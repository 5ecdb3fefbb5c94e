import { routerOf } from '@cropcover/runtime';
import { Router } from 'express';
import type { CommandApiDeps } from './command-api-deps';
import { commandRoutes } from './command-routes';
import { idempotencyKey } from './idempotency/idempotency-key';

/** Every write of the service, behind the Idempotency-Key check of its POSTs. */
export const createCommandRouter = (deps: CommandApiDeps): Router => {
  const router = Router();
  router.use(idempotencyKey(deps));
  router.use(routerOf(commandRoutes, deps));
  return router;
};

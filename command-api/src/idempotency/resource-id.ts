import type { Response } from 'express';
import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';

// A create under an Idempotency-Key names its new resource after the key and the request, so a retry
// after a crash between append and answer finds the resource its first run made instead of making a
// second one (issue 11, fault 3). The request's fingerprint is part of the name: a key used again for
// another request (allowed once the first answer's 24 h are over) makes another resource.

const KEYED_RESOURCE_NAMESPACE = '0f6f5c1e-59a3-4f0e-9c55-2c1d5a7b8e41';

/** Where the idempotency middleware leaves the scope of the key this request holds. */
const KEY_SCOPE = 'idempotencyKeyScope';

export const holdKeyScope = (
  res: Response,
  scope: readonly [caller: string, organization: string, key: string, fingerprint: string],
) => {
  res.locals[KEY_SCOPE] = JSON.stringify(scope);
};

/** Whether the request runs under an Idempotency-Key. */
export const isKeyed = (res: Response): boolean => typeof res.locals[KEY_SCOPE] === 'string';

/** The id of a resource the request creates: the same for every run of a keyed request, else new. */
export const newResourceId = (res: Response): string =>
  isKeyed(res) ? uuidv5(res.locals[KEY_SCOPE] as string, KEYED_RESOURCE_NAMESPACE) : uuidv7();

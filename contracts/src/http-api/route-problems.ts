import type { ProblemCode } from './problem-codes';
import type { RouteContract } from './route-contract';

// The problems every route may answer besides its own (issue 13, items 1-3): those of the HTTP layer in
// front of it (authentication, rate limit, body parsing, validation), of the roles it declares, of
// idempotency keys on POST. Computed once here for the OpenAPI document and for the router's check that a
// route answers only what it declares, so a new route cannot forget them.

export interface ProblemAnswer {
  readonly description: string;
  readonly codes: readonly ProblemCode[];
}

/** Who may call a route with roles, as its 403 says. */
const rolesDescription = (roles: readonly string[]): string =>
  `Needs the role ${roles.join(' or ')} (or admin), and an org_id in the token`;

const isWrite = (route: RouteContract): boolean => route.method !== 'get';

const layerProblems = (route: RouteContract): Partial<Record<number, ProblemAnswer>> => {
  const write = isWrite(route);
  const post = route.method === 'post';
  return {
    400: {
      description: 'Malformed JSON, wrong types, unknown fields or values',
      codes: [
        'validation_failed',
        'malformed_path',
        'bad_request',
        ...(write ? (['malformed_json', 'json_too_deep', 'incomplete_body'] as const) : []),
        ...(post ? (['invalid_idempotency_key'] as const) : []),
        ...(write ? [] : (['invalid_consistency_token'] as const)),
      ],
    },
    401: {
      description: 'Missing, expired, malformed or wrongly signed bearer token',
      codes: ['unauthorized', 'invalid_token', 'token_expired'],
    },
    403: route.roles
      ? { description: rolesDescription(route.roles), codes: ['forbidden', 'organization_required'] }
      : { description: 'The token lacks the role or organization this needs', codes: ['forbidden'] },
    ...(post
      ? {
          409: {
            description: 'idempotency_key_in_flight: the first request with this key still runs',
            codes: ['idempotency_key_in_flight'],
          },
          422: {
            description: 'idempotency_key_reused: the key was used for another request',
            codes: ['idempotency_key_reused'],
          },
        }
      : {}),
    ...(write
      ? {
          // Any write may carry a body (settle and the DELETEs accept an empty one), so any can be refused for it.
          413: { description: 'Body larger than 1 MiB', codes: ['payload_too_large'] },
          415: { description: 'Body is not application/json', codes: ['unsupported_media_type'] },
        }
      : {}),
    429: { description: 'Rate limit exceeded; see Retry-After', codes: ['rate_limited'] },
    503: {
      description: 'The database cannot serve the request right now (SPEC §10); nothing was changed; see Retry-After',
      codes: ['database_unavailable'],
    },
  };
};

/** Every problem the route may answer, by status: its own first, then the HTTP layer's; a status both
 *  have keeps both descriptions and both code lists. A route that declares its own 403 without roles
 *  answers only its own. */
export const routeProblems = (route: RouteContract): ReadonlyMap<number, ProblemAnswer> => {
  const layer = layerProblems(route);
  const own = (route.problems ?? {}) as Record<number, ProblemAnswer | undefined>;
  const statuses = [...new Set([...Object.keys(own), ...Object.keys(layer)].map(Number))].sort((a, b) => a - b);
  return new Map(
    statuses.map((status): [number, ProblemAnswer] => {
      const declared = own[status];
      const shared = status === 403 && declared && !route.roles ? undefined : layer[status];
      if (!declared) return [status, shared!];
      if (!shared) return [status, declared];
      return [
        status,
        {
          description: `${declared.description}; ${shared.description}`,
          codes: [...new Set([...declared.codes, ...shared.codes])],
        },
      ];
    }),
  );
};

/** Whether the route may answer `status` with `code`. */
export const mayAnswer = (route: RouteContract, status: number, code: string): boolean =>
  routeProblems(route)
    .get(status)
    ?.codes.includes(code as ProblemCode) ?? false;

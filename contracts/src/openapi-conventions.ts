import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { ProblemDetails } from './common';
import { z } from './zod';

// What every operation shares (issue 13, items 1-3): an operationId, the statuses the HTTP layer itself
// answers (413 and 415 on a body, 409 and 422 of Idempotency-Key on POST, 403 of the role rules), and
// the request and response headers that carry versions, consistency and replays. Applied once to every
// registered route, so a new route cannot forget them.

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ProblemDetails } },
});

const header = (description: string, example?: string) => ({
  description,
  schema: { type: 'string' as const, ...(example === undefined ? {} : { example }) },
});

/** `post /farms/{farm_id}/fields` → `postFarmsFarmIdFields`: stable, unique, and readable in a client. */
export const operationIdOf = (method: string, path: string): string =>
  [method, ...path.split('/').flatMap((segment) => segment.replace(/[{}]/g, '').split(/[_-]/))]
    .filter((word) => word !== '')
    .map((word, at) => (at === 0 ? word.toLowerCase() : `${word[0]!.toUpperCase()}${word.slice(1).toLowerCase()}`))
    .join('');

const IdempotencyKeyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .optional()
    .openapi({ description: 'Makes a retried POST safe: the first answer is replayed for 24 h (SPEC §5).' }),
});
const ConsistencyTokenHeader = z.object({
  'Consistency-Token': z
    .string()
    .optional()
    .openapi({ description: 'The Consistency-Token of an earlier write: the read waits (bounded) to include it.' }),
});

/** A status the route already documents keeps its description, with the shared one added. */
const withStatus = (
  responses: RouteConfig['responses'],
  status: number,
  description: string,
): RouteConfig['responses'] => {
  const existing = responses[status];
  if (existing && 'description' in existing)
    return { ...responses, [status]: { ...existing, description: `${existing.description}; ${description}` } };
  return { ...responses, [status]: problem(description) };
};

type Response = RouteConfig['responses'][number];

const withHeaders = (response: Response, headers: Record<string, ReturnType<typeof header>>): Response => {
  if (!('description' in response)) return response;
  const existing = (response as { headers?: Record<string, unknown> }).headers ?? {};
  return { ...response, headers: { ...existing, ...headers } } as Response;
};

const WRITE_HEADERS = {
  'Consistency-Token': header('Where the write landed in the log; send it on a read to see the write.', '123456.7'),
  'Consistency-Status': header('`current`, or `behind` when the wait for the read models ran out first.', 'current'),
  'Idempotent-Replayed': header('`true` when the answer is the stored first answer to this Idempotency-Key.', 'true'),
};

const conventionalRoute = (route: RouteConfig): RouteConfig => {
  // Any write may carry a body (settle and the DELETEs accept an empty one), so any write can be refused for it.
  const hasBody = route.method !== 'get';
  let responses: RouteConfig['responses'] = { ...route.responses };
  if (!responses[403]) responses = withStatus(responses, 403, 'The token lacks the role or organization this needs');
  if (hasBody) {
    responses = withStatus(responses, 413, 'Body larger than 1 MiB');
    responses = withStatus(responses, 415, 'Body is not application/json');
  }
  if (route.method === 'post') {
    responses = withStatus(responses, 409, 'idempotency_key_in_flight: the first request with this key still runs');
    responses = withStatus(responses, 422, 'idempotency_key_reused: the key was used for another request');
  }
  responses[401] = withHeaders(responses[401]!, {
    'WWW-Authenticate': header(
      'The scheme to authenticate with (RFC 6750), and the error when a token was sent',
      'Bearer',
    ),
  });
  responses = withStatus(responses, 429, 'Rate limit exceeded; see Retry-After');
  responses[429] = withHeaders(responses[429]!, { 'Retry-After': header('Seconds to wait', '1') });
  if (route.method !== 'get') {
    for (const [status, response] of Object.entries(responses))
      if (Number(status) < 300) responses[status] = withHeaders(response, WRITE_HEADERS);
  } else {
    for (const [status, response] of Object.entries(responses))
      if (Number(status) < 300)
        responses[status] = withHeaders(response, { 'Consistency-Status': WRITE_HEADERS['Consistency-Status'] });
  }
  for (const [status, response] of Object.entries(responses))
    if (status === '201')
      responses[status] = withHeaders(response, { Location: header('Where the new resource is read') });
  const headers =
    route.method === 'post' ? IdempotencyKeyHeader : route.method === 'get' ? ConsistencyTokenHeader : undefined;
  return {
    ...route,
    operationId: route.operationId ?? operationIdOf(route.method, route.path),
    request: { ...route.request, ...(headers && !route.request?.headers ? { headers } : {}) },
    responses,
  };
};

/** Applies the shared conventions to every route registered so far. */
export const applyOperationConventions = (registry: OpenAPIRegistry): void => {
  for (const definition of registry.definitions)
    if (definition.type === 'route') definition.route = conventionalRoute(definition.route);
};

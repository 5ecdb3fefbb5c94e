import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { ProblemDetails } from '../common';
import { z } from '../zod';
import type { ProblemCode } from './problem-codes';
import type { RouteContract } from './route-contract';
import { routeProblems } from './route-problems';

// A route's OpenAPI operation, built from its declaration alone: an operationId, its request, its success
// and every problem it may answer (route-problems.ts) with the codes of each status as an enum on `code`,
// and the request and response headers that carry versions, consistency and replays.

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

const WRITE_HEADERS = {
  'Consistency-Token': header('Where the write landed in the log; send it on a read to see the write.', '123456.7'),
  'Consistency-Status': header('`current`, or `behind` when the wait for the read models ran out first.', 'current'),
  'Idempotent-Replayed': header('`true` when the answer is the stored first answer to this Idempotency-Key.', 'true'),
};

/** The headers every request of the method may carry, with the route's own. */
const requestHeaders = (route: RouteContract): z.ZodObject | undefined => {
  const shared =
    route.method === 'post' ? IdempotencyKeyHeader : route.method === 'get' ? ConsistencyTokenHeader : undefined;
  const own = route.request?.headers;
  if (!own) return shared;
  return shared ? own.extend(shared.shape) : own;
};

/** A text form of a body, beside its JSON: a string of the media type, described, with an example. */
const textContent = (text: { mediaType: string; description: string; example: string } | undefined) =>
  text
    ? {
        [text.mediaType]: { schema: { type: 'string' as const, description: text.description }, example: text.example },
      }
    : {};

const successResponse = (route: RouteContract) => {
  const { status, description, schema, headers = {}, text } = route.success;
  const own = Object.fromEntries(Object.entries(headers).map(([name, about]) => [name, header(about)]));
  return {
    description,
    ...(schema ? { content: { 'application/json': { schema }, ...textContent(text) } } : {}),
    headers: {
      ...own,
      ...(route.method === 'get' ? { 'Consistency-Status': WRITE_HEADERS['Consistency-Status'] } : WRITE_HEADERS),
      ...(status === 201 ? { Location: header('Where the new resource is read') } : {}),
      ...(status === 202 ? { Location: header('Where the job is followed') } : {}),
    },
  };
};

/** Problem details whose `code` is one of the status's codes: a client can switch on them, and a
 *  validating proxy refuses any other. */
const problemSchema = (codes: readonly ProblemCode[]) =>
  ProblemDetails.extend({ code: z.enum(codes as [ProblemCode, ...ProblemCode[]]) });

const PROBLEM_HEADERS: Record<number, Record<string, ReturnType<typeof header>>> = {
  401: {
    'WWW-Authenticate': header(
      'The scheme to authenticate with (RFC 6750), and the error when a token was sent',
      'Bearer',
    ),
  },
  429: { 'Retry-After': header('Seconds to wait', '1') },
  503: { 'Retry-After': header('Seconds to wait', '5') },
};

const problemResponses = (route: RouteContract): RouteConfig['responses'] =>
  Object.fromEntries(
    [...routeProblems(route)].map(([status, { description, codes }]) => [
      status,
      {
        description,
        content: { 'application/problem+json': { schema: problemSchema(codes) } },
        ...(PROBLEM_HEADERS[status] ? { headers: PROBLEM_HEADERS[status] } : {}),
      },
    ]),
  );

/** A file body: its bytes as sent, in any of the media types. */
const fileContent = (mediaTypes: readonly string[]) =>
  Object.fromEntries(mediaTypes.map((type) => [type, { schema: { type: 'string' as const, format: 'binary' } }]));

/** The route as zod-to-openapi registers it. */
export const routeOperation = (route: RouteContract): RouteConfig => {
  const { params, query, body, bodyRequired = true, file, text } = route.request ?? {};
  const headers = requestHeaders(route);
  return {
    method: route.method,
    path: route.path,
    operationId: operationIdOf(route.method, route.path),
    tags: [...route.tags],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    request: {
      ...(params ? { params: params as z.ZodObject } : {}),
      ...(query ? { query: query as z.ZodObject } : {}),
      ...(headers ? { headers } : {}),
      ...(body
        ? { body: { content: { 'application/json': { schema: body }, ...textContent(text) }, required: bodyRequired } }
        : {}),
      ...(file ? { body: { content: fileContent(file.mediaTypes), required: true } } : {}),
    },
    responses: {
      ...(route.success.unchanged
        ? {
            [route.success.unchanged.status]: {
              ...successResponse({ ...route, success: { ...route.success, status: route.success.unchanged.status } }),
              description: route.success.unchanged.description,
            },
          }
        : {}),
      [route.success.status]: successResponse(route),
      ...problemResponses(route),
    },
  };
};

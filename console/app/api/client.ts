import type { ApiAnswer, ApiOperation, ApiRequest } from '@cropcover/contracts';
import { sessionToken, signOut } from '../session';

// Every call of the console goes through `callApi`: same origin, the session's bearer token, and a problem
// (RFC 9457) turned into an error that says what the API said. A call names its operation as the route
// declares it (`GET /insurance/policies/{policy_id}`); the contracts' operations map types what it sends
// and what it gets, so a changed contract fails `tsc -p console`, and the path is built from the operation.

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    detail: string,
  ) {
    super(detail);
  }
}

/** A request as it goes on the wire, whichever operation it is for: its parts' fields are each route's
 *  own (the operation's `ApiRequest` says which), read here by name. */
interface WireRequest {
  readonly params?: object;
  readonly query?: object;
  readonly headers?: object;
  readonly body?: unknown;
}

/** `GET /insurance/policies/{policy_id}` with its parameters → the method and the URL to fetch. */
const target = (operation: ApiOperation, { params = {}, query = {} }: WireRequest) => {
  const space = operation.indexOf(' ');
  const values = new Map(Object.entries(params));
  const path = operation
    .slice(space + 1)
    .replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values.get(name))));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return { method: operation.slice(0, space), url: text === '' ? path : `${path}?${text}` };
};

const problemOf = async (response: Response): Promise<ApiProblem> => {
  try {
    const problem: { code?: string; detail?: string; title?: string } = await response.json();
    return new ApiProblem(response.status, problem.code, problem.detail ?? problem.title ?? response.statusText);
  } catch {
    return new ApiProblem(response.status, undefined, response.statusText);
  }
};

/** The operations that answer a body: every one but the 204s, which the read-only console never calls. */
type AnsweringOperation = { [O in ApiOperation]: ApiAnswer<O> extends undefined ? never : O }[ApiOperation];

/** Calls an operation of the API as the signed-in token and answers its success body. A 401 signs out: the
 *  token is no good for anything. The console is read-only: its writes ask the API to compute something
 *  (an as-if backtest, a payout curve), never to change the book. */
export const callApi = async <O extends AnsweringOperation>(
  operation: O,
  request: ApiRequest<O> & WireRequest,
  signal?: AbortSignal,
): Promise<ApiAnswer<O>> => {
  const token = sessionToken();
  if (token === null) throw new ApiProblem(401, 'unauthorized', 'Sign in with a token first.');
  const { method, url } = target(operation, request);
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  for (const [name, value] of Object.entries(request.headers ?? {}))
    if (value !== undefined) headers[name] = String(value);
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    ...(signal ? { signal } : {}),
  });
  // The body is the route's declared success schema: the route walk through a validating proxy
  // (test/src/e2e/openapi-routes.e2e.test.ts) holds the API to it, and the console bundles no zod to
  // check it again.
  if (response.ok) return response.json();
  const problem = await problemOf(response);
  if (response.status === 401) signOut(`The API refused the token: ${problem.message}`);
  throw problem;
};

/** The API's largest page: reading a whole list in as few requests as it allows. */
const PAGE_SIZE = 100;

/** Every page of a paginated list: the first, then the others side by side. */
export const everyPage = async <Page extends { readonly total: number }>(
  pageOf: (page: number, page_size: number) => Promise<Page>,
): Promise<Page[]> => {
  const first = await pageOf(1, PAGE_SIZE);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, Math.ceil(first.total / PAGE_SIZE) - 1) }, (_, index) =>
      pageOf(index + 2, PAGE_SIZE),
    ),
  );
  return [first, ...rest];
};

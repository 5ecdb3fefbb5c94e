import { sessionToken, signOut } from '../session';

// Every call of the console goes through here: same origin, the session's bearer token, and a problem
// (RFC 9457) turned into an error that says what the API said.

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    detail: string,
  ) {
    super(detail);
  }
}

export type Query = Record<string, string | number | undefined>;

const withQuery = (path: string, query: Query = {}): string => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
};

const problemOf = async (response: Response): Promise<ApiProblem> => {
  try {
    const problem = (await response.json()) as { code?: string; detail?: string; title?: string };
    return new ApiProblem(response.status, problem.code, problem.detail ?? problem.title ?? response.statusText);
  } catch {
    return new ApiProblem(response.status, undefined, response.statusText);
  }
};

const call = async <T>(path: string, init: RequestInit): Promise<T> => {
  const token = sessionToken();
  if (token === null) throw new ApiProblem(401, 'unauthorized', 'Sign in with a token first.');
  const response = await fetch(path, {
    ...init,
    headers: { ...init.headers, authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  if (response.ok) return (await response.json()) as T;
  const problem = await problemOf(response);
  if (response.status === 401) signOut(`The API refused the token: ${problem.message}`);
  throw problem;
};

/** GET of a path of the API as the signed-in token. A 401 signs out: the token is no good for anything. */
export const apiGet = <T>(path: string, query: Query = {}, signal?: AbortSignal): Promise<T> =>
  call<T>(withQuery(path, query), signal ? { signal } : {});

/** POST of a JSON body: only to ask the API to compute something (an as-if backtest), never to change the
 *  book — the console is read-only. */
export const apiPost = <T>(path: string, body: unknown): Promise<T> =>
  call<T>(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

interface Page<Item> {
  readonly items: Item[];
  readonly total: number;
}

/** The API's largest page: reading every item of a list in as few requests as it allows. */
const PAGE_SIZE = 100;

/** Every item of a paginated list: the first page, then the others side by side. */
export const apiGetAll = async <Item>(path: string, query: Query, signal?: AbortSignal): Promise<Item[]> => {
  const first = await apiGet<Page<Item>>(path, { ...query, page: 1, page_size: PAGE_SIZE }, signal);
  const pages = Math.ceil(first.total / PAGE_SIZE);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, index) =>
      apiGet<Page<Item>>(path, { ...query, page: index + 2, page_size: PAGE_SIZE }, signal),
    ),
  );
  return [...first.items, ...rest.flatMap((page) => page.items)];
};

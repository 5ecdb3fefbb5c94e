import { signDevToken } from '@cropcover/runtime';
import { TEST_JWT_SECRET } from './service-process';

export interface ApiResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

export interface Caller {
  readonly sub: string;
  readonly org?: string;
  readonly roles?: readonly string[];
  readonly givenName?: string;
  readonly familyName?: string;
}

export const tokenFor = (caller: Caller): Promise<string> => signDevToken(caller, TEST_JWT_SECRET);

/** A client of one running service that signs requests as the given caller. The base URL may be given
 *  late (a function): a file's client exists before its `beforeAll` has started the service. */
export const apiClient = (baseUrl: string | (() => string)) => {
  const base = typeof baseUrl === 'string' ? () => baseUrl : baseUrl;
  const request = async (
    method: string,
    path: string,
    options: {
      caller?: Caller;
      token?: string;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
      /** Ends the wait for an answer (e.g. AbortSignal.timeout). */
      signal?: AbortSignal;
    } = {},
  ): Promise<ApiResponse> => {
    const token = options.token ?? (options.caller ? await tokenFor(options.caller) : undefined);
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}) };
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${base()}${path}`, {
      method,
      headers: { ...headers, ...options.headers },
      body,
      signal: options.signal,
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed };
  };
  return {
    request,
    get: (path: string, caller?: Caller, headers?: Record<string, string>) => request('GET', path, { caller, headers }),
    post: (path: string, caller: Caller, body: unknown, headers?: Record<string, string>) =>
      request('POST', path, { caller, body, headers }),
    put: (path: string, caller: Caller, body: unknown, headers?: Record<string, string>) =>
      request('PUT', path, { caller, body, headers }),
    delete: (path: string, caller: Caller) => request('DELETE', path, { caller }),
  };
};
export type ApiClient = ReturnType<typeof apiClient>;

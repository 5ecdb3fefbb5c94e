import { randomUUID } from 'node:crypto';
import { type DevTokenClaims, signDevToken } from '@cropcover/runtime';

/** Signs each request as its caller, the way a real client would hold a token from its provider. */
export interface DemoAuth {
  readonly secret: string;
  readonly issuer?: string;
  readonly audience?: string;
}

export class DemoStepFailed extends Error {
  constructor(
    readonly request: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${request} answered ${status}`);
    this.name = 'DemoStepFailed';
  }
}

/** POST a JSON body as `caller` and return the parsed answer; any non-2xx stops the demo. Each POST
 *  carries a fresh Idempotency-Key, as a client that may retry should. */
export const demoApi = (baseUrl: string, auth: DemoAuth) => {
  const call = async <T>(method: 'GET' | 'POST', caller: DevTokenClaims, path: string, body?: unknown): Promise<T> => {
    const token = await signDevToken(
      { ...caller, issuer: auth.issuer, audience: auth.audience, expiresIn: '10m' },
      auth.secret,
    );
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(method === 'POST' ? { 'content-type': 'application/json', 'idempotency-key': randomUUID() } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed: unknown = text === '' ? undefined : JSON.parse(text);
    if (!response.ok) throw new DemoStepFailed(`${method} ${path}`, response.status, parsed);
    return parsed as T;
  };
  return {
    get: <T>(caller: DevTokenClaims, path: string) => call<T>('GET', caller, path),
    post: <T>(caller: DevTokenClaims, path: string, body: unknown) => call<T>('POST', caller, path, body),
    /** A POST the demo expects to be refused: its status and problem, instead of stopping the demo. */
    postRefused: async (caller: DevTokenClaims, path: string, body: unknown): Promise<DemoStepFailed> => {
      try {
        await call<unknown>('POST', caller, path, body);
      } catch (error) {
        if (error instanceof DemoStepFailed) return error;
        throw error;
      }
      throw new Error(`POST ${path} was accepted; the demo expected a refusal`);
    },
  };
};

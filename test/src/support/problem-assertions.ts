import { expect } from 'vitest';
import type { ApiResponse } from './api-client';

/** The response is an RFC 9457 problem with this status and stable code. */
export const expectProblem = (response: ApiResponse, status: number, code: string): void => {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({ status, code, request_id: expect.any(String), title: expect.any(String) });
  expect(response.body.type).toEqual(expect.any(String));
};

/** The `path` of each entry of a validation problem's `errors`. */
export const errorPaths = (response: ApiResponse): string[] =>
  (response.body.errors as { path: string }[]).map((error) => error.path);

import { connect } from 'node:net';
import { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SANDBOX_JWT_SECRET } from '../config';
import { signDevToken } from '../dev-token';
import { startTestApp, type TestApp } from '../testing/test-app';
import { ProblemError } from './problem';
import { parseBody } from './validation';

const Thing = z.strictObject({ name: z.string().min(1) });

let app: TestApp;
let authorization: string;

beforeAll(async () => {
  authorization = `Bearer ${await signDevToken({ sub: 'u1' }, SANDBOX_JWT_SECRET)}`;
  app = await startTestApp({
    mount: (express) => {
      const router = Router();
      router.post('/things', (req, res) => {
        res.status(201).json(parseBody(Thing, req));
      });
      router.get('/things/:id', (req, res) => {
        res.json(req.params);
      });
      router.get('/conflict', () => {
        throw ProblemError.conflict('version_conflict', 'The farm changed since you read it.');
      });
      router.get('/boom', async () => {
        throw new Error('connect ECONNREFUSED postgres://app:hunter2@10.0.0.5:5432/cc');
      });
      express.use(router);
    },
  });
});

afterAll(() => app.close());

const post = (body: string | Buffer, contentType?: string) =>
  fetch(`${app.baseUrl}/things`, {
    method: 'POST',
    headers: { authorization, ...(contentType ? { 'content-type': contentType } : {}) },
    body,
  });

interface ProblemJson {
  readonly detail: string;
  readonly instance: string;
  readonly request_id: string;
  readonly errors?: unknown;
}

const expectProblem = async (response: Response, status: number, code: string): Promise<ProblemJson> => {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  const body = (await response.json()) as ProblemJson;
  expect(body).toMatchObject({
    type: `urn:cropcover:problem:${code}`,
    title: expect.any(String),
    status,
    detail: expect.any(String),
    instance: new URL(response.url).pathname,
    code,
    request_id: response.headers.get('x-request-id'),
  });
  return body;
};

describe('problem details', () => {
  it('writes a thrown ProblemError as RFC 9457 problem+json', async () => {
    const body = await expectProblem(
      await fetch(`${app.baseUrl}/conflict?x=1`, { headers: { authorization } }),
      409,
      'version_conflict',
    );
    expect(body.detail).toBe('The farm changed since you read it.');
    expect(body.instance).toBe('/conflict');
    expect(body).not.toHaveProperty('errors');
  });

  it('accepts a JSON body', async () => {
    const response = await post(JSON.stringify({ name: 'North' }), 'application/json');
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ name: 'North' });
  });

  it('answers malformed JSON with 400 malformed_json', async () => {
    await expectProblem(await post('{"name": ', 'application/json'), 400, 'malformed_json');
  });

  it('answers a body over 1 MiB with 413', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    await expectProblem(await post(big, 'application/json'), 413, 'payload_too_large');
  });

  it('answers a Content-Length far over the limit with 413 from the header alone, closing the connection', async () => {
    // Headers only, no body: before the fix body-parser waited to drain the announced gigabyte.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(app.baseUrl).port), '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('utf8');
      });
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
      socket.write(
        `POST /things HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authorization}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 999999999\r\n\r\n',
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).toContain('"code":"payload_too_large"');
  }, 10_000);

  it('answers a non-JSON body with 415', async () => {
    await expectProblem(await post('name=North', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
    await expectProblem(await post('{"name":"North"}', 'text/plain'), 415, 'unsupported_media_type');
  });

  it('rejects an unknown field, naming it', async () => {
    const body = await expectProblem(
      await post(JSON.stringify({ name: 'North', colour: 'red' }), 'application/json'),
      400,
      'validation_failed',
    );
    expect(body.errors).toEqual([{ path: 'colour', message: 'unknown field' }]);
  });

  it('answers an unexpected error with an opaque 500 and logs it', async () => {
    const response = await fetch(`${app.baseUrl}/boom`, { headers: { authorization } });
    const body = await expectProblem(response, 500, 'internal_error');
    const text = JSON.stringify(body);
    expect(text).not.toContain('ECONNREFUSED');
    expect(text).not.toContain('hunter2');
    expect(body.detail).toMatch(/request id/);
    const logged = app.logs.find((line) => line.msg === 'unhandled error');
    expect(logged).toMatchObject({ level: 'error', request_id: body.request_id });
    expect(app.rawLogs()).toContain('ECONNREFUSED');
    expect(app.rawLogs()).not.toContain('hunter2');
  });

  it('answers a path parameter that cannot be percent-decoded with 400 malformed_path', async () => {
    for (const id of ['%ZZ', '%', '%ED%A0%80'])
      await expectProblem(
        await fetch(`${app.baseUrl}/things/${id}`, { headers: { authorization } }),
        400,
        'malformed_path',
      );
  });

  it('answers an unknown route with 404 not_found', async () => {
    const body = await expectProblem(
      await fetch(`${app.baseUrl}/nowhere`, { headers: { authorization } }),
      404,
      'not_found',
    );
    expect(body.detail).toBe('No route for GET /nowhere.');
  });
});

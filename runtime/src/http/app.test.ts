import { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_JWT_SECRET } from '../config';
import { signDevToken } from '../dev-token';
import { startTestApp, type TestApp } from '../testing/test-app';
import { ProblemError } from './problem';

const openApiDocument = { openapi: '3.1.0', info: { title: 'CropCover test API', version: '9.9.9' }, paths: {} };
const asyncApiDocument = { asyncapi: '3.0.0', info: { title: 'CropCover test topics', version: '9.9.9' } };

let app: TestApp;
let authorization: string;
let databaseUp = true;

beforeAll(async () => {
  authorization = `Bearer ${await signDevToken({ sub: 'u1' }, SANDBOX_JWT_SECRET)}`;
  app = await startTestApp({
    openApiDocument,
    asyncApiDocument,
    readiness: [
      {
        name: 'database',
        check: async () => (databaseUp ? undefined : Promise.reject(new Error('connection refused'))),
      },
      { name: 'event_store', check: async () => undefined },
    ],
    mount: (express) => {
      const policies = Router();
      policies.get('/:policy_id', (req, res) => {
        if (req.params.policy_id === 'missing') throw ProblemError.notFound();
        res.json({ policy_id: req.params.policy_id });
      });
      express.use('/insurance/policies', policies);
    },
  });
});

afterAll(() => app.close());

describe('public endpoints', () => {
  it('GET /healthz answers without a token', async () => {
    const response = await fetch(`${app.baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz reports each check, 503 when one fails', async () => {
    const ready = await fetch(`${app.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ok',
      checks: { database: { status: 'ok' }, event_store: { status: 'ok' } },
    });
    databaseUp = false;
    try {
      const unready = await fetch(`${app.baseUrl}/readyz`);
      expect(unready.status).toBe(503);
      expect(await unready.json()).toEqual({
        status: 'unavailable',
        checks: { database: { status: 'failing' }, event_store: { status: 'ok' } },
      });
      expect(app.logs.find((line) => line.msg === 'not ready')).toMatchObject({ check: 'database' });
    } finally {
      databaseUp = true;
    }
  });

  it('GET /openapi.json serves the given document', async () => {
    expect(await (await fetch(`${app.baseUrl}/openapi.json`)).json()).toEqual(openApiDocument);
    expect(await (await fetch(`${app.baseUrl}/asyncapi.json`)).json()).toEqual(asyncApiDocument);
  });

  it('GET /docs serves Swagger UI with local assets', async () => {
    const page = await fetch(`${app.baseUrl}/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('CropCover API');
    expect(html).not.toMatch(/https?:\/\/(cdn|unpkg)/);
    const css = await fetch(`${app.baseUrl}/docs/swagger-ui.css`);
    expect(css.status).toBe(200);
    const init = await (await fetch(`${app.baseUrl}/docs/swagger-ui-init.js`)).text();
    expect(init).toContain('CropCover test API');
    const bare = await fetch(`${app.baseUrl}/docs`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/docs/');
  });

  it('GET /metrics exposes request latency by route pattern', async () => {
    await fetch(`${app.baseUrl}/insurance/policies/p-123`, { headers: { authorization } });
    await fetch(`${app.baseUrl}/insurance/policies/missing`, { headers: { authorization } });
    const response = await fetch(`${app.baseUrl}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/insurance\/policies\/:policy_id",status="200"\} 1/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/insurance\/policies\/:policy_id",status="404"\} 1/,
    );
    expect(text).not.toContain('p-123');
  });

  it('requires a token for everything mounted after createHttpApp', async () => {
    expect((await fetch(`${app.baseUrl}/insurance/policies/p-1`)).status).toBe(401);
  });
});

describe('request id', () => {
  it('generates a uuid v4 and echoes it', async () => {
    const response = await fetch(`${app.baseUrl}/healthz`);
    expect(response.headers.get('x-request-id')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('keeps a sane inbound X-Request-Id, in the header, the problem and the log', async () => {
    const response = await fetch(`${app.baseUrl}/insurance/policies/missing`, {
      headers: { authorization, 'x-request-id': 'gw-42.abc', 'x-correlation-id': 'saga-7' },
    });
    expect(response.headers.get('x-request-id')).toBe('gw-42.abc');
    expect(await response.json()).toMatchObject({ request_id: 'gw-42.abc' });
    const access = app.logs.find((line) => line.request_id === 'gw-42.abc' && line.msg === 'request');
    expect(access).toMatchObject({
      correlation_id: 'saga-7',
      method: 'GET',
      path: '/insurance/policies/missing',
      status: 404,
      ms: expect.any(Number),
    });
    expect(JSON.stringify(access)).not.toContain('authorization');
  });

  it('replaces an inbound id that is too long or has odd characters', async () => {
    for (const inbound of ['x'.repeat(200), 'a b', '<script>', 'id"quoted"']) {
      const response = await fetch(`${app.baseUrl}/healthz`, { headers: { 'x-request-id': inbound } });
      expect(response.headers.get('x-request-id')).not.toBe(inbound);
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

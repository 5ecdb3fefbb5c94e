import { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SANDBOX_JWT_SECRET } from '../config';
import { signDevToken } from '../dev-token';
import { startTestApp, type TestApp } from '../testing/test-app';
import { parseBody, parseParams, parseQuery } from './validation';

const Quote = z.strictObject({
  farm_id: z.string().min(1),
  perils: z.array(z.enum(['drought', 'flood'])).min(1),
  sum_insured: z.number().positive(),
  location: z.strictObject({ lat: z.number().min(-90).max(90), lon: z.number() }).optional(),
  note: z
    .string()
    .max(5, { error: 'must be at most 5 characters' })
    .regex(/^[a-z]*$/)
    .optional(),
});
const Page = z.strictObject({ page: z.coerce.number().int().min(1).default(1) });
const PolicyPath = z.strictObject({ policy_id: z.uuid() });

let app: TestApp;
let authorization: string;

beforeAll(async () => {
  authorization = `Bearer ${await signDevToken({ sub: 'u1' }, SANDBOX_JWT_SECRET)}`;
  app = await startTestApp({
    mount: (express) => {
      const router = Router();
      router.post('/quote', (req, res) => {
        res.json(parseBody(Quote, req));
      });
      router.get('/policies', (req, res) => {
        res.json(parseQuery(Page, req));
      });
      router.get('/policies/:policy_id', (req, res) => {
        res.json(parseParams(PolicyPath, req));
      });
      express.use(router);
    },
  });
});

afterAll(() => app.close());

const postQuote = (body: unknown) =>
  fetch(`${app.baseUrl}/quote`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const errorsOf = async (response: Response) => {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { code: string; errors: { path: string; message: string }[] };
  expect(body.code).toBe('validation_failed');
  return body.errors;
};

describe('validation', () => {
  it('passes valid input through, parsed', async () => {
    const response = await postQuote({ farm_id: 'f1', perils: ['flood'], sum_insured: 1000 });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ farm_id: 'f1', perils: ['flood'], sum_insured: 1000 });
  });

  it('reports one entry per offending field with a dotted path', async () => {
    const errors = await errorsOf(
      await postQuote({ perils: ['drought', 'hail'], sum_insured: '1000', location: { lat: 91, lon: 0 } }),
    );
    expect(errors).toEqual([
      { path: 'farm_id', message: 'is required' },
      { path: 'perils.1', message: expect.stringContaining('drought') },
      { path: 'sum_insured', message: expect.stringMatching(/expected number/) },
      { path: 'location.lat', message: expect.any(String) },
    ]);
  });

  it('keeps only the first message for a field that breaks several rules', async () => {
    const errors = await errorsOf(
      await postQuote({ farm_id: 'f1', perils: ['flood'], sum_insured: 1, note: 'TOO LONG' }),
    );
    expect(errors).toEqual([{ path: 'note', message: 'must be at most 5 characters' }]);
  });

  it('names unknown fields, nested ones included', async () => {
    const errors = await errorsOf(
      await postQuote({
        farm_id: 'f1',
        perils: ['flood'],
        sum_insured: 1,
        extra: 1,
        location: { lat: 1, lon: 2, alt: 3 },
      }),
    );
    expect(errors).toEqual([
      { path: 'location.alt', message: 'unknown field' },
      { path: 'extra', message: 'unknown field' },
    ]);
  });

  it('treats a POST without a body as an empty object', async () => {
    const response = await fetch(`${app.baseUrl}/quote`, { method: 'POST', headers: { authorization } });
    const errors = await errorsOf(response);
    expect(errors.map((error) => error.path)).toEqual(['farm_id', 'perils', 'sum_insured']);
  });

  it('reports a body of the wrong shape at the empty path', async () => {
    const errors = await errorsOf(await postQuote([1, 2]));
    expect(errors).toEqual([{ path: '', message: expect.stringMatching(/expected object/) }]);
  });

  it('validates the query string', async () => {
    const ok = await fetch(`${app.baseUrl}/policies?page=3`, { headers: { authorization } });
    expect(await ok.json()).toEqual({ page: 3 });
    const errors = await errorsOf(await fetch(`${app.baseUrl}/policies?page=0&sort=x`, { headers: { authorization } }));
    expect(errors.map((error) => error.path).sort()).toEqual(['page', 'sort']);
  });

  it('validates path parameters', async () => {
    const errors = await errorsOf(await fetch(`${app.baseUrl}/policies/not-a-uuid`, { headers: { authorization } }));
    expect(errors).toEqual([{ path: 'policy_id', message: expect.any(String) }]);
  });
});

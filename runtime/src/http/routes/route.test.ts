import type { Operation, RouteDeclaration } from '@cropcover/contracts';
import { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SANDBOX_JWT_SECRET } from '../../config';
import { type DevTokenClaims, signDevToken } from '../../dev-token';
import { startTestApp, type TestApp } from '../../testing/test-app';
import { ProblemError } from '../problem';
import { UNDECLARED_PROBLEM } from './answered-route';
import { declareRoute } from './route';
import { routerOf } from './router-of';

// Issue 23: a declared route is role-checked, validated and answered as its declaration says, and a
// problem it answers without declaring it is logged as a gap in the declaration.

interface Deps {
  readonly greeting: string;
}
const testRoute = <const C extends RouteDeclaration>(operation: Operation, declaration: C) =>
  declareRoute<Deps, C>(operation, declaration);

const ThingParams = z.strictObject({ thing_id: z.string().min(2) });
const ThingQuery = z.strictObject({ loud: z.enum(['true', 'false']).default('false') });
const Thing = z.object({ thing_id: z.string(), said: z.string() });
const Rename = z.strictObject({ name: z.string().min(1) });
const Tally = z.strictObject({ counts: z.array(z.number().int().min(0)).min(1) });
const TallyQuery = z.strictObject({ format: z.enum(['json', 'csv']).optional() });
const Tallied = z.object({ thing_id: z.string(), total: z.number() });

const routes = [
  testRoute('GET /things/{thing_id}', {
    summary: 'A thing',
    request: { params: ThingParams, query: ThingQuery },
    success: { status: 200, schema: Thing, description: 'The thing' },
    problems: { 404: { description: 'No such thing', codes: ['not_found'] } },
  }).handle(async ({ deps, params: { thing_id }, query: { loud }, refuse }) => {
    if (thing_id === 'gone') throw refuse('not_found', 'No thing gone.');
    if (thing_id === 'odd') throw ProblemError.conflict('version_conflict', 'Not declared by this route.');
    return { thing_id, said: loud === 'true' ? deps.greeting.toUpperCase() : deps.greeting };
  }),
  // Declared after the route with a parameter, matched before it.
  testRoute('GET /things/mine', {
    summary: 'My thing',
    success: { status: 200, schema: Thing, description: 'Mine' },
  }).handle(async ({ principal }) => ({ thing_id: 'mine', said: principal.sub })),
  testRoute('PUT /things/{thing_id}', {
    summary: 'Rename a thing',
    roles: ['insurer'],
    request: { params: ThingParams, body: Rename },
    success: { status: 204, description: 'Renamed' },
  }).handle(async ({ organizationId, body: { name }, res }) => {
    res.setHeader('X-Renamed', `${organizationId}:${name}`);
    return undefined;
  }),
  // A JSON body with a text form (one count a line), and an answer with one (`?format=csv`).
  testRoute('POST /things/{thing_id}/tally', {
    summary: 'Tally a thing',
    request: {
      params: ThingParams,
      query: TallyQuery,
      body: Tally,
      text: {
        mediaType: 'text/csv',
        description: 'One count a line',
        example: '1\n2\n',
        read: (text) => {
          if (text.includes(';')) throw ProblemError.badRequest('bad_request', 'Not counts.');
          return { counts: text.trim().split('\n').map(Number) };
        },
      },
    },
    success: {
      status: 200,
      schema: Tallied,
      description: 'The total',
      text: {
        format: 'csv',
        mediaType: 'text/csv',
        description: 'thing,total',
        example: 't1,3\n',
        write: (tallied: z.output<typeof Tallied>) => `${tallied.thing_id},${tallied.total}\n`,
      },
    },
    problems: { 400: { description: 'Not counts', codes: ['bad_request'] } },
  }).handle(async ({ params: { thing_id }, body: { counts } }) => ({
    thing_id,
    total: counts.reduce((sum, count) => sum + count, 0),
  })),
  testRoute('DELETE /things/{thing_id}', {
    summary: 'Drop a thing',
    request: { params: ThingParams },
    success: { status: 204, description: 'Dropped' },
  }).handle(async () => undefined),
];

let app: TestApp;
const tokenOf = (claims: Omit<DevTokenClaims, 'sub'>) => signDevToken({ sub: 'u1', ...claims }, SANDBOX_JWT_SECRET);
let plain: string;
let insurer: string;

beforeAll(async () => {
  plain = `Bearer ${await tokenOf({})}`;
  insurer = `Bearer ${await tokenOf({ roles: ['insurer'], org: 'org-1' })}`;
  app = await startTestApp({
    textBodyRoutes: [{ path: /^\/things\/[^/]+\/tally$/, mediaType: 'text/csv' }],
    mount: (express) => {
      const router = Router();
      router.use(routerOf(routes, { greeting: 'hello' }));
      express.use(router);
    },
  });
});

afterAll(() => app.close());

const call = (path: string, init: RequestInit = {}, authorization = plain) =>
  fetch(`${app.baseUrl}${path}`, { ...init, headers: { authorization, ...init.headers } });
const json = (body: unknown): RequestInit => ({
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});
const undeclaredLogs = () => app.logs.filter((line) => line.msg === UNDECLARED_PROBLEM);

describe('a declared route', () => {
  it('hands the handler its parsed params and query, and answers the declared status', async () => {
    const response = await call('/things/t1?loud=true');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ thing_id: 't1', said: 'HELLO' });
  });

  it('refuses input its schemas refuse, before the handler runs', async () => {
    const short = await call('/things/t');
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'thing_id' }] });
    expect((await call('/things/t1?shout=1')).status).toBe(400);
  });

  it('matches fixed segments before parameters, whatever the order of the list', async () => {
    expect(await (await call('/things/mine')).json()).toEqual({ thing_id: 'mine', said: 'u1' });
  });

  it('checks its roles and organization first, then validates the body', async () => {
    const rename = { method: 'PUT', ...json({ name: 'North' }) };
    const forbidden = await call('/things/t1', { method: 'PUT', ...json({ nope: 1 }) });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ code: 'forbidden' });
    const noOrganization = await call('/things/t1', rename, `Bearer ${await tokenOf({ roles: ['insurer'] })}`);
    expect(await noOrganization.json()).toMatchObject({ code: 'organization_required' });
    const renamed = await call('/things/t1', rename, insurer);
    expect(renamed.status).toBe(204);
    expect(renamed.headers.get('x-renamed')).toBe('org-1:North');
    expect((await call('/things/t1', { method: 'PUT', ...json({}) }, insurer)).status).toBe(400);
  });

  it('refuses any field in the body of a write that declares none', async () => {
    const response = await call('/things/t1', { method: 'DELETE', ...json({ force: true }) });
    expect(await response.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'force' }] });
    expect((await call('/things/t1', { method: 'DELETE' })).status).toBe(204);
  });

  it('refuses with a declared code at that code’s status, and logs nothing about it', async () => {
    const response = await call('/things/gone');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found', title: 'Not found', detail: 'No thing gone.' });
    expect(undeclaredLogs()).toEqual([]);
  });

  it('logs a problem its declaration does not list, and answers it unchanged', async () => {
    const response = await call('/things/odd');
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: 'version_conflict' });
    expect(undeclaredLogs()).toEqual([
      expect.objectContaining({
        level: 'error',
        method: 'GET',
        path: '/things/{thing_id}',
        status: 409,
        code: 'version_conflict',
      }),
    ]);
  });
});

describe('a route with a text form of its body and answer', () => {
  const csv = (body: string): RequestInit => ({ method: 'POST', body, headers: { 'content-type': 'text/csv' } });

  it('reads the text into its JSON body and answers JSON, or the text form its query asks for', async () => {
    const asJson = await call('/things/t1/tally', csv('1\n2\n'));
    expect(asJson.status).toBe(200);
    expect(await asJson.json()).toEqual({ thing_id: 't1', total: 3 });
    const asCsv = await call('/things/t1/tally?format=csv', csv('1\n2\n'));
    expect(asCsv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await asCsv.text()).toBe('t1,3\n');
    const sentJson = await call('/things/t1/tally', { method: 'POST', ...json({ counts: [4] }) });
    expect(await sentJson.json()).toEqual({ thing_id: 't1', total: 4 });
  });

  it('validates what the text says as a JSON body, and answers what its reader refuses', async () => {
    const negative = await call('/things/t1/tally', csv('1\n-2\n'));
    expect(negative.status).toBe(400);
    expect(await negative.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'counts.1' }] });
    const unreadable = await call('/things/t1/tally', csv('1;2'));
    expect(unreadable.status).toBe(400);
    expect(await unreadable.json()).toMatchObject({ code: 'bad_request' });
  });

  it('is the only route that takes text: another answers 415', async () => {
    const response = await call('/things/t1', { ...csv('name'), method: 'PUT' }, insurer);
    expect(response.status).toBe(415);
  });
});

describe('the router of a list of declarations', () => {
  it('refuses a route declared twice', () => {
    expect(() => routerOf([routes[0]!, routes[0]!], { greeting: 'hi' })).toThrow(
      'GET /things/{thing_id} is declared twice',
    );
  });
});

describe('the types of a declaration', () => {
  it('let a handler refuse only with codes its declaration lists, each under its own status', () => {
    const contract = {
      summary: 'Typed',
      success: { status: 200, schema: Thing, description: '' },
    } as const;
    const declared = testRoute('GET /typed', {
      ...contract,
      problems: { 404: { description: '', codes: ['not_found'] } },
    }).handle(async ({ refuse }) => {
      // @ts-expect-error version_conflict is not declared by this route
      if (Math.random() > 2) throw refuse('version_conflict', 'not declared');
      throw refuse('not_found', 'declared');
    });
    const misfiled = testRoute('GET /typed', {
      ...contract,
      // @ts-expect-error farm_inactive is a 422, not a 409
      problems: { 409: { description: '', codes: ['farm_inactive'] } },
    });
    expect(declared.path).toBe('/typed');
    expect(misfiled.handle).toBeTypeOf('function');
  });
});

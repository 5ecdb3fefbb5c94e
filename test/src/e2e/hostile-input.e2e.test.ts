import { connect } from 'node:net';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type Caller, tokenFor } from '../support/api-client';
import { expectProblem } from '../support/problem-assertions';
import { type RunningService, startService, TEST_PERSONAL_DATA_KEYS } from '../support/service-process';
import { serviceUnderTest } from '../support/service-under-test';

// Input an adversarial client sends on purpose: each must be a prompt 4xx problem that writes nothing.

/** Short, so a request that never completes is answered within the test's patience. */
const REQUEST_TIMEOUT_MS = 2_000;

const suite = serviceUnderTest('e2e_hostile', { HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) });
const { api, query } = suite;
let callerCount = 0;
const newCaller = (extra: Partial<Caller> = {}): Caller => ({
  sub: `hostile-${++callerCount}-${Date.now()}`,
  ...extra,
});
const provider: Caller = { sub: 'provider-1', org: 'org-data', roles: ['data_provider'] };
const insurer: Caller = { sub: 'insurer-1', org: 'org-ins', roles: ['insurer'] };

const countRows = async (table: string): Promise<number> =>
  Number((await query<{ count: string }>(`select count(*) from ${table}`)).rows[0]!.count);
/** Every table a refused request could have written to. */
const written = async () => ({
  events: await countRows('events'),
  readings: await countRows('index_readings'),
  keys: await countRows('idempotency_keys'),
});

describe('NUL and unpaired surrogates (item 8)', () => {
  it.each([
    ['a NUL in a value', { name: 'Sham\u0000ba' }, 'name'],
    ['an unpaired high surrogate', { name: 'Shamba \uD800' }, 'name'],
    ['an unpaired low surrogate in a list', { name: 'A', common_grown_crops: ['\uDC00'] }, 'common_grown_crops.0'],
    ['a NUL in a key', { name: 'A', 'n\u0000': 1 }, 'n\u0000'],
  ])('refuses %s in a body with 400, and makes no farmer profile', async (_label, body, path) => {
    const caller = newCaller();
    const before = await written();
    const response = await api.post('/farms/create', caller, body);
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toEqual([{ path, message: expect.stringContaining('NUL') }]);
    expect((await api.get('/farms/farmers/me', caller)).status).toBe(404);
    expect(await written()).toEqual(before);
  });

  it('refuses them in readings, a path and a query', async () => {
    const before = await written();
    const reading = { farm_id: 'farm\u0000', field_id: 'f1', index: 'rainfall_mm', date: '2026-01-01', value: 1 };
    const posted = await api.post('/insurance/index-readings', provider, { readings: [reading] });
    expectProblem(posted, 400, 'validation_failed');
    expect(posted.body.errors).toEqual([expect.objectContaining({ path: 'readings.0.farm_id' })]);
    const queried = await api.get('/insurance/index-readings?farm_id=a%00b&field_id=f1', provider);
    expectProblem(queried, 400, 'validation_failed');
    expect(queried.body.errors).toEqual([expect.objectContaining({ path: 'farm_id' })]);
    expectProblem(await api.get('/farms/a%00b', newCaller()), 400, 'validation_failed');
    expectProblem(await api.get('/insurance/policies/a%00b', insurer), 400, 'validation_failed');
    expectProblem(await api.request('DELETE', '/farms/a%00b', { caller: newCaller() }), 400, 'validation_failed');
    expect(await written()).toEqual(before);
  });
});

describe('malformed percent-escapes in a path (item 9)', () => {
  it.each([
    ['GET', '/farms/%ZZ'],
    ['GET', '/insurance/policies/%E0%A4%A'],
    ['DELETE', '/farms/%ZZ'],
    ['POST', '/farms/%ZZ/fields'],
    ['DELETE', '/insurance/webhooks/%ED%A0%80'],
  ])('answers %s %s with 400 malformed_path and writes nothing', async (method, path) => {
    const before = await written();
    const caller = method === 'GET' || path.startsWith('/farms') ? newCaller() : insurer;
    const body = method === 'POST' ? { name: 'Plot', area_ha: 1, location: { lat: 0, lon: 0 } } : undefined;
    expectProblem(await api.request(method, path, { caller, body }), 400, 'malformed_path');
    expect(await written()).toEqual(before);
  });
});

describe('deeply nested JSON (item 10)', () => {
  const nestedBody = (levels: number): string => `{"name":"A","x":${'['.repeat(levels)}${']'.repeat(levels)}}`;

  it.each([
    ['with an Idempotency-Key, nested 400 000 deep', 400_000, { 'idempotency-key': 'deep-1' }],
    ['without a key, one level past the limit', 33, {}],
  ])('refuses a body %s with 400 json_too_deep, at once, writing nothing', async (_label, levels, headers) => {
    const caller = newCaller();
    const before = await written();
    const started = Date.now();
    const response = await api.request('POST', '/farms/create', {
      caller,
      rawBody: nestedBody(levels),
      headers: { 'content-type': 'application/json', ...headers },
    });
    expectProblem(response, 400, 'json_too_deep');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await written()).toEqual(before);
    expect((await api.get('/farms/farmers/me', caller)).status).toBe(404);
  });

  it('still reads a body at the limit (and refuses it for its content)', async () => {
    const response = await api.request('POST', '/farms/create', {
      caller: newCaller(),
      rawBody: nestedBody(31),
      headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-2' },
    });
    expectProblem(response, 400, 'validation_failed');
  });
});

describe('a body on DELETE (item 15)', () => {
  it('refuses an unknown field on DELETE /farms/{farm_id} with 400 and keeps the farm', async () => {
    const owner = newCaller();
    const farm = (await api.post('/farms/create', owner, { name: 'Shamba' })).body;
    const before = await written();
    const response = await api.request('DELETE', `/farms/${farm.farm_id}`, { caller: owner, body: { force: true } });
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toEqual([{ path: 'force', message: 'unknown field' }]);
    expect(await written()).toEqual(before);
    expect((await api.get(`/farms/${farm.farm_id}`, owner)).body.is_active).toBe(true);
    expect((await api.request('DELETE', `/farms/${farm.farm_id}`, { caller: owner, body: {} })).status).toBe(204);
  });

  it('refuses an unknown field on DELETE /insurance/webhooks/{webhook_id} with 400 and keeps it active', async () => {
    const created = await api.post('/insurance/webhooks/trigger-events', insurer, {
      url: 'https://hooks.example.com/cropcover',
    });
    expect(created.status).toBe(201);
    const path = `/insurance/webhooks/${created.body.webhook_id}`;
    const before = await written();
    const response = await api.request('DELETE', path, { caller: insurer, body: { reason: 'spam' } });
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toEqual([{ path: 'reason', message: 'unknown field' }]);
    expect(await written()).toEqual(before);
    expect((await api.request('DELETE', path, { caller: insurer })).status).toBe(204);
  });
});

describe('webhook URLs naming internal-only hosts (issue 25)', () => {
  it.each([
    'https://localhost./x',
    'https://vm/x',
    'https://db.localdomain/x',
    'https://metadata.google.internal/x',
    'https://127.0.0.1/x',
  ])('refuses %s at creation with 422 and stores nothing', async (url) => {
    const before = { ...(await written()), secrets: await countRows('webhook_secrets') };
    const response = await api.post('/insurance/webhooks/trigger-events', insurer, { url });
    expectProblem(response, 422, 'webhook_url_not_public');
    expect({ ...(await written()), secrets: await countRows('webhook_secrets') }).toEqual(before);
  });
});

describe('integers and ids in readings and queries (item 17)', () => {
  it.each(['0x10', '1e1', '+2', '%202', '1.0'])('refuses page=%s with 400', async (page) => {
    const readings = await api.get(`/insurance/index-readings?farm_id=F1&field_id=f1&page=${page}`, provider);
    expectProblem(readings, 400, 'validation_failed');
    expect(readings.body.errors).toEqual([expect.objectContaining({ path: 'page' })]);
    expectProblem(await api.get(`/insurance/policies?page_size=${page}`, insurer), 400, 'validation_failed');
  });

  it('still reads plain decimal pages', async () => {
    const response = await api.get('/insurance/index-readings?farm_id=F1&field_id=f1&page=02&page_size=10', provider);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ page: 2, page_size: 10 });
  });

  it.each([
    ['farm_id', { farm_id: ' ', field_id: 'f1' }],
    ['farm_id', { farm_id: '\t\t', field_id: 'f1' }],
    ['field_id', { farm_id: 'F1', field_id: '  ' }],
  ])('refuses a blank %s in a reading and in the query, recording nothing', async (path, ids) => {
    const before = await written();
    const reading = { ...ids, index: 'rainfall_mm', date: '2026-01-01', value: 1 };
    const posted = await api.post('/insurance/index-readings', provider, { readings: [reading] });
    expectProblem(posted, 400, 'validation_failed');
    expect(posted.body.errors).toEqual([expect.objectContaining({ path: `readings.0.${path}` })]);
    const query = new URLSearchParams(ids).toString();
    const read = await api.get(`/insurance/index-readings?${query}`, provider);
    expectProblem(read, 400, 'validation_failed');
    expect(read.body.errors).toEqual([expect.objectContaining({ path })]);
    expect(await written()).toEqual(before);
  });
});

describe('requests that never complete, and oversized headers (item 11)', () => {
  /** Sends `request` on a raw socket and reads until the server closes it, or gives up after `waitMs`. */
  const rawExchange = (request: string, waitMs: number) =>
    new Promise<{ status: number; headers: string; body: any; elapsedMs: number }>((resolve, reject) => {
      const started = Date.now();
      const socket = connect(Number(new URL(suite.service.baseUrl).port), '127.0.0.1');
      let received = '';
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer within ${waitMs} ms; got ${JSON.stringify(received.slice(0, 200))}`));
      }, waitMs);
      socket.on('data', (chunk) => {
        received += chunk.toString();
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        const [head = '', body = ''] = received.split('\r\n\r\n');
        resolve({
          status: Number(head.split(' ')[1]),
          headers: head.toLowerCase(),
          body: body ? JSON.parse(body) : undefined,
          elapsedMs: Date.now() - started,
        });
      });
      socket.write(request);
    });

  it('answers a body shorter than its Content-Length with a 408 problem once the timeout passes', async () => {
    const caller = newCaller();
    const before = await written();
    const answer = await rawExchange(
      [
        'POST /farms/create HTTP/1.1',
        'Host: localhost',
        `Authorization: Bearer ${await tokenFor(caller)}`,
        'Content-Type: application/json',
        'Content-Length: 100',
        '',
        '{"name":"A"',
      ].join('\r\n'),
      REQUEST_TIMEOUT_MS + 4_000,
    );
    expect(answer.status).toBe(408);
    expect(answer.headers).toContain('content-type: application/problem+json');
    expect(answer.body).toMatchObject({ status: 408, code: 'request_timeout', request_id: expect.any(String) });
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(await written()).toEqual(before);
    expect((await api.get('/farms/farmers/me', caller)).status).toBe(404);
  });

  it('answers a Content-Length far over the limit with 413 on every declared route, reading nothing', async () => {
    // Headers only: a server that waited for the announced body would answer 408 after the short timeout.
    // 2 GiB is far over every route's limit, the index files' 1 GiB among them.
    const document = (await api.get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, 'x')}`),
    );
    expect(routes.length).toBeGreaterThan(30);
    const token = await tokenFor({ sub: 'oversize', org: 'org-ins', roles: ['admin'] });
    const before = await written();
    const statuses = new Map<string, number>();
    for (const route of routes) {
      const answer = await rawExchange(
        [
          `${route} HTTP/1.1`,
          'Host: localhost',
          `Authorization: Bearer ${token}`,
          'Content-Type: application/json',
          'Content-Length: 2147483648',
          '',
          '',
        ].join('\r\n'),
        REQUEST_TIMEOUT_MS + 4_000,
      );
      statuses.set(route, answer.status);
    }
    expect([...statuses].filter(([, status]) => status !== 413)).toEqual([]);
    expect(await written()).toEqual(before);
  });

  it('answers a 100 KB header with a 431 problem at once', async () => {
    const before = await written();
    const answer = await rawExchange(
      [
        'GET /farms/farmers/me HTTP/1.1',
        'Host: localhost',
        `Authorization: Bearer ${'a'.repeat(100_000)}`,
        '',
        '',
      ].join('\r\n'),
      3_000,
    );
    expect(answer.status).toBe(431);
    expect(answer.headers).toContain('content-type: application/problem+json');
    expect(answer.body).toMatchObject({ status: 431, code: 'headers_too_large', title: expect.any(String) });
    expect(await written()).toEqual(before);
  });

  it('answers a request line that is not HTTP with a 400 problem', async () => {
    const answer = await rawExchange('NOT HTTP AT ALL\r\n\r\n', 3_000);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: 400, code: 'malformed_request' });
  });
});

describe('response headers and /metrics in production (item 16)', () => {
  const METRICS_TOKEN = 'scrape-token-for-the-hostile-input-suite';
  let production: RunningService;
  let productionDatabase: TestDatabase;

  beforeAll(async () => {
    productionDatabase = await createTestDatabase('e2e_hostile_production');
    production = await startService({
      DATABASE_URL: productionDatabase.url,
      APP_ENV: 'production',
      PERSONAL_DATA_KEYS: TEST_PERSONAL_DATA_KEYS,
      METRICS_TOKEN,
    });
  }, 120_000);

  afterAll(async () => {
    await production?.stop();
    await productionDatabase?.drop();
  });

  it('asks for the metrics token in production, with a 401 problem', async () => {
    const prod = apiClient(production.baseUrl);
    expectProblem(await prod.get('/metrics'), 401, 'unauthorized');
    expectProblem(await prod.get('/metrics', undefined, { authorization: 'Bearer wrong' }), 401, 'unauthorized');
    expectProblem(await prod.get('/metrics', insurer), 401, 'unauthorized');
    const scraped = await prod.get('/metrics', undefined, { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(scraped.status).toBe(200);
    expect(scraped.body).toContain('http_request_duration_seconds');
    expect((await api.get('/metrics')).status).toBe(200);
  });

  it('sends nosniff on every answer and no-store on every authenticated one', async () => {
    const caller = newCaller();
    const answers = {
      health: await api.get('/healthz'),
      anonymous: await api.get('/farms/farmers/me'),
      unknown: await api.get('/nowhere', caller),
      problem: await api.get('/farms/farmers/me', caller),
      created: await api.post('/farms/create', caller, { name: 'Shamba' }),
    };
    for (const answer of Object.values(answers)) expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    for (const answer of [answers.unknown, answers.problem, answers.created])
      expect(answer.headers.get('cache-control')).toBe('no-store');
    const read = await api.get(`/farms/${answers.created.body.farm_id}`, caller);
    expect(read.headers.get('cache-control')).toBe('no-store');
  });

  it('forbids framing the docs', async () => {
    const docs = await fetch(`${suite.service.baseUrl}/docs/`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('x-frame-options')).toBe('DENY');
    expect(docs.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});

describe('idempotent replays and the caller’s organization and roles (item 12)', () => {
  const subscribe = (caller: Caller) =>
    api.post(
      '/insurance/webhooks/trigger-events',
      caller,
      { url: 'https://hooks.example.com/replay' },
      { 'idempotency-key': 'replay-across-orgs' },
    );

  it('never replays one organization’s webhook and secret to the same sub acting for another', async () => {
    const sub = `two-hats-${Date.now()}`;
    const first = await subscribe({ sub, org: 'org-first', roles: ['insurer'] });
    expect(first.status).toBe(201);
    const other = await subscribe({ sub, org: 'org-second', roles: ['insurer'] });
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.organization_id).toBe('org-second');
    expect(other.body.webhook_id).not.toBe(first.body.webhook_id);
    expect(other.body.raw_secret).not.toBe(first.body.raw_secret);
    const again = await subscribe({ sub, org: 'org-first', roles: ['insurer'] });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('refuses the replay to the same sub and organization without the role, writing nothing', async () => {
    const sub = `demoted-${Date.now()}`;
    expect((await subscribe({ sub, org: 'org-first', roles: ['insurer'] })).status).toBe(201);
    const before = await written();
    const demoted = await subscribe({ sub, org: 'org-first', roles: ['auditor'] });
    expectProblem(demoted, 422, 'idempotency_key_reused');
    expect(JSON.stringify(demoted.body)).not.toContain('raw_secret');
    expect(await written()).toEqual(before);
  });
});

import { randomUUID } from 'node:crypto';
import { RAIN_DAYS_SHEET } from '@cropcover/domain/testing';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type ApiResponse, apiClient, type Caller } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { type PrismProxy, startPrismProxy } from '../support/prism-proxy';
import { type RunningService, startProcess } from '../support/service-process';

// Issue 13, "Done when": a walk over every route of the OpenAPI document, over real HTTP against the
// service on real PostgreSQL, with good inputs and bad ones (no or a bad token, a missing role, a
// malformed, oversized, non-JSON or unknown-field body, unknown ids, stale versions, reused idempotency
// keys, business refusals, an exhausted rate limit). Every answer must be documented for its operation:
// its status, a problem's content type, and each contract header it carries. The requests go through a
// Prism proxy, which checks the same answers against the document on its own, bodies included, and
// must report no response violation. A problem's `code` must be one the document lists for its status
// (issue 23: the route declarations list them, and the document enumerates them on `code`).

type Method = 'get' | 'post' | 'put' | 'delete';
interface DocumentedResponse {
  content?: Record<string, { schema?: { allOf?: { properties?: { code?: { enum?: string[] } } }[] } }>;
  headers?: Record<string, unknown>;
}
interface OpenApiDocument {
  paths: Record<string, Partial<Record<Method, { responses: Record<string, DocumentedResponse> }>>>;
}

/** Headers a client acts on: each one the service sends must be documented for that answer. */
const CONTRACT_HEADERS = [
  'location',
  'etag',
  'consistency-token',
  'consistency-status',
  'idempotent-replayed',
  'retry-after',
  'www-authenticate',
];
const RATE_LIMIT_PER_MINUTE = 60;
const MIB = 1024 * 1024;

let database: TestDatabase;
let service: RunningService;
let prism: PrismProxy;
let viaPrism: ApiClient;
let document: OpenApiDocument;
const observed = new Map<string, Set<number>>();
const mismatches: string[] = [];

const insurer: Caller = { sub: 'walk-insurer', org: 'org-walk', roles: ['insurer'] };
const feed: Caller = { sub: 'walk-feed', org: 'org-walk', roles: ['data_provider'] };
const auditor: Caller = { sub: 'walk-auditor', org: 'org-walk', roles: ['auditor'] };
const provider: Caller = { sub: 'walk-provider', org: 'org-data', roles: ['data_provider'] };
const owner: Caller = { sub: 'walk-farmer', givenName: 'Amina', familyName: 'Otieno' };
/** A caller of its own for one probe, so probes do not spend each other's rate limit. */
const fresh = (caller: Caller): Caller => ({ ...caller, sub: `${caller.sub}-${randomUUID().slice(0, 8)}` });

const fill = (template: string, params: Record<string, string>): string =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? `unknown-${name}`));

/** Checks one answer against the document and notes its status for the operation. */
const judge = (method: Method, template: string, response: ApiResponse): void => {
  const where = `${method.toUpperCase()} ${template} → ${response.status}`;
  const operation = document.paths[template]?.[method];
  if (!operation) {
    mismatches.push(`${where}: no such operation in the document`);
    return;
  }
  const key = `${method} ${template}`;
  observed.set(key, (observed.get(key) ?? new Set()).add(response.status));
  const documented = operation.responses[String(response.status)];
  if (!documented) {
    mismatches.push(`${where}: status not in the document (${Object.keys(operation.responses).join(', ')})`);
    return;
  }
  const contentType = response.headers.get('content-type')?.split(';')[0];
  if (response.status >= 400 && contentType !== 'application/problem+json')
    mismatches.push(`${where}: a problem answered as ${contentType}`);
  if (contentType && !Object.keys(documented.content ?? {}).includes(contentType))
    mismatches.push(`${where}: ${contentType} is not documented`);
  // Issue 23: each status lists the problem codes it may carry, and a problem answers only one of them.
  if (response.status >= 400) {
    const codes = documented.content?.['application/problem+json']?.schema?.allOf?.[1]?.properties?.code?.enum ?? [];
    if (!codes.includes(response.body?.code))
      mismatches.push(`${where}: code ${response.body?.code} is not one of the documented ${codes.join(', ')}`);
  }
  const documentedHeaders = Object.keys(documented.headers ?? {}).map((name) => name.toLowerCase());
  for (const header of CONTRACT_HEADERS)
    if (response.headers.has(header) && !documentedHeaders.includes(header))
      mismatches.push(`${where}: header ${header} is not documented`);
  const violations = JSON.parse(response.headers.get('sl-violations') ?? '[]') as {
    location: string[];
    message: string;
  }[];
  for (const violation of violations.filter((candidate) => candidate.location[0] === 'response'))
    mismatches.push(`${where}: Prism: ${violation.location.join('.')} ${violation.message}`);
};

interface CallOptions {
  readonly params?: Record<string, string>;
  /** `?…` after the path. */
  readonly query?: string;
  readonly caller?: Caller;
  readonly token?: string;
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly headers?: Record<string, string>;
  /** Straight to the service, for what Prism 5.14 cannot forward: it never answers a request whose JSON
   *  body is malformed, and when the service answers a 1 MiB body 413 before reading it and closes the
   *  connection, Prism's upstream client fails that and other requests on it with its own 500. */
  readonly bypassPrism?: boolean;
}

/** One request through Prism, judged against the document. */
const call = async (method: Method, template: string, options: CallOptions = {}): Promise<ApiResponse> => {
  const { params = {}, query = '', bypassPrism = false, ...request } = options;
  const client = bypassPrism ? apiClient(service.baseUrl) : viaPrism;
  const response = await client.request(method.toUpperCase(), `${fill(template, params)}${query}`, request);
  judge(method, template, response);
  return response;
};

const json = (rawBody: string) => ({ rawBody, headers: { 'content-type': 'application/json' } });

/** Who may call an operation, for the probes that need a caller past authentication. */
const permittedCaller = (template: string): Caller =>
  template.startsWith('/insurance/index-sources') || template === '/insurance/index-readings'
    ? provider
    : template.startsWith('/insurance')
      ? insurer
      : owner;

/** The ids the walk created, for the generic probes of each operation. */
const ids: Record<string, string> = {};

beforeAll(async () => {
  database = await createTestDatabase('e2e_openapi_routes');
  // `npm start` with a Prism proxy of the test's own in front, whatever E2E_PRISM_PROXY says.
  service = await startProcess(
    ['npm', 'start', '--silent'],
    { DATABASE_URL: database.url, MONITOR_ENABLED: 'false', RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE) },
    '/readyz',
  );
  document = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as OpenApiDocument;
  prism = await startPrismProxy(service.baseUrl);
  viaPrism = apiClient(prism.baseUrl);
}, 180_000);

afterAll(async () => {
  await prism?.stop();
  await service?.stop();
  await database?.drop();
});

describe('every route of the OpenAPI document, walked over HTTP through a Prism proxy', () => {
  it('answers the registry flow, good and bad, only as documented', async () => {
    expect(
      (await call('post', '/farms/farmers', { caller: owner, body: { first_name: 'A', last_name: 'O' } })).status,
    ).toBe(201);
    expect(
      (await call('post', '/farms/farmers', { caller: owner, body: { first_name: 'A', last_name: 'O' } })).status,
    ).toBe(409);
    expect((await call('get', '/farms/farmers/me', { caller: fresh(owner) })).status).toBe(404);
    const me = await call('get', '/farms/farmers/me', { caller: owner });
    ids.platform_farmer_id = me.body.platform_farmer_id;
    await call('put', '/farms/farmers/me', { caller: owner, body: { data_consent_given: true } });
    await call('put', '/farms/farmers/me', { caller: fresh(owner), body: { data_consent_given: true } });
    await call('get', '/farms/farmers/{platform_farmer_id}', { caller: fresh(owner), params: ids });
    await call('get', '/farms/farmers/{platform_farmer_id}', {
      caller: owner,
      params: { platform_farmer_id: 'PF-0000000' },
    });

    const farmBody = { name: 'Shamba Kuu', country: 'KE', currency: 'KES' };
    const key = { 'Idempotency-Key': randomUUID() };
    const farm = await call('post', '/farms/create', { caller: owner, body: farmBody, headers: key });
    expect(farm.status).toBe(201);
    ids.farm_id = farm.body.farm_id;
    await call('post', '/farms/create', { caller: owner, body: farmBody, headers: key });
    await call('post', '/farms/create', { caller: owner, body: { ...farmBody, name: 'Other' }, headers: key });
    await call('post', '/farms/create', { caller: owner, body: { name: '' } });

    const read = await call('get', '/farms/{farm_id}', { caller: owner, params: ids });
    await call('get', '/farms/{farm_id}', { caller: fresh(owner), params: ids });
    await call('put', '/farms/{farm_id}', {
      caller: owner,
      params: ids,
      body: { has_irrigation: true },
      headers: { 'If-Match': '"0"' },
    });
    await call('put', '/farms/{farm_id}', {
      caller: owner,
      params: ids,
      body: { has_irrigation: true, updated_at: '2001-01-01T00:00:00.000Z' },
    });
    await call('put', '/farms/{farm_id}', {
      caller: owner,
      params: ids,
      body: { has_irrigation: true },
      headers: { 'If-Match': read.headers.get('etag') ?? '' },
    });
    await call('put', '/farms/{farm_id}', { caller: fresh(owner), params: ids, body: { has_irrigation: true } });

    const field = { field_id: 'north', name: 'North plot', area_ha: 2.5, location: { lat: -1.29, lon: 36.82 } };
    expect((await call('post', '/farms/{farm_id}/fields', { caller: owner, params: ids, body: field })).status).toBe(
      201,
    );
    await call('post', '/farms/{farm_id}/fields', { caller: owner, params: ids, body: field });
    await call('get', '/farms/{farm_id}/fields', { caller: owner, params: ids });
    ids.field_id = 'north';

    const insurance = { organization_id: insurer.org!, purposes: ['insurance'] };
    const access = '/farms/{farm_id}/access';
    expect((await call('post', access, { caller: owner, params: ids, body: insurance })).status).toBe(201);
    await call('post', access, { caller: owner, params: ids, body: { ...insurance, expires_on: '2001-01-01' } });
    await call('post', access, { caller: fresh(owner), params: ids, body: insurance });
    await call('post', access, { caller: insurer, params: ids, body: { ...insurance, organization_id: 'org-other' } });
    const advisory = { organization_id: 'org-walk-advisor', purposes: ['advisory'] };
    expect((await call('post', access, { caller: owner, params: ids, body: advisory })).status).toBe(201);
    await call('get', access, { caller: owner, params: ids });
    await call('get', access, { caller: insurer, params: ids });
    ids.organization_id = advisory.organization_id;
    const revoke = '/farms/{farm_id}/access/{organization_id}';
    expect((await call('delete', revoke, { caller: owner, params: ids })).status).toBe(204);
    await call('delete', revoke, { caller: owner, params: ids });

    const doomed = await call('post', '/farms/create', { caller: owner, body: { name: 'Doomed' } });
    const inactive = { farm_id: doomed.body.farm_id as string };
    await call('post', access, { caller: owner, params: inactive, body: insurance });
    ids.inactive_farm_id = inactive.farm_id;
    await call('delete', '/farms/{farm_id}', { caller: fresh(owner), params: inactive });
    await call('delete', '/farms/{farm_id}', { caller: owner, params: inactive });
    await call('delete', '/farms/{farm_id}', { caller: owner, params: inactive });
    await call('get', '/farms/{farm_id}', { caller: owner, params: inactive });
  });

  it('answers the index data flow, good and bad, only as documented', async () => {
    const grid = { kind: 'grid', name: 'CHIRPS v2 0.05°', index: 'rainfall_mm', resolution_deg: 0.05 };
    const source = await call('post', '/insurance/index-sources', { caller: provider, body: grid });
    expect(source.status).toBe(201);
    ids.source_id = source.body.source_id;
    await call('post', '/insurance/index-sources', { caller: insurer, body: grid });
    await call('post', '/insurance/index-sources', { caller: provider, body: { ...grid, resolution_deg: 0.07 } });
    await call('get', '/insurance/index-sources', { caller: auditor });
    await call('get', '/insurance/index-sources/{source_id}', { caller: insurer, params: ids });
    await call('get', '/insurance/index-sources/{source_id}', { caller: insurer, params: { source_id: randomUUID() } });

    const reading = { farm_id: ids.farm_id!, field_id: ids.field_id!, index: 'rainfall_mm', value: 1 };
    await call('post', '/insurance/index-readings', {
      caller: feed,
      body: { readings: [{ ...reading, date: today() }] },
    });
    await call('post', '/insurance/index-readings', {
      caller: feed,
      body: { readings: [{ ...reading, date: addDays(today(), 2) }] },
    });
    await call('post', '/insurance/index-readings', {
      caller: insurer,
      body: { readings: [{ ...reading, date: today() }] },
    });
    const field = `?farm_id=${ids.farm_id}&field_id=${ids.field_id}&index=rainfall_mm`;
    await call('get', '/insurance/index-readings', { caller: feed, query: field });
    await call('get', '/insurance/index-readings', { caller: feed, query: `${field}&page_size=0` });
  });

  it('answers the products flow, good and bad, only as documented', async () => {
    const sheet = RAIN_DAYS_SHEET;
    const registered = await call('post', '/insurance/products', {
      caller: insurer,
      body: { product_id: 'walk-rain-days', sheet },
    });
    expect(registered.status).toBe(201);
    ids.product_id = 'walk-rain-days';
    ids.version = '1';
    await call('post', '/insurance/products', { caller: insurer, body: { product_id: 'walk-rain-days', sheet } });
    const [cover] = sheet.covers;
    const broken = { ...sheet, covers: [{ ...cover, phases: [{ ...cover!.phases[0], limit: 20_000_000 }] }] };
    await call('post', '/insurance/products', { caller: insurer, body: { product_id: 'walk-broken', sheet: broken } });
    await call('post', '/insurance/products/validate', { caller: insurer, body: { sheet } });
    await call('post', '/insurance/products/validate', { caller: insurer, body: { sheet: broken } });
    const curve = { sheet, peril: cover!.peril, from: 0, to: 20, points: 21 };
    const drawn = await call('post', '/insurance/products/payout-curve', { caller: insurer, body: curve });
    expect(drawn.status).toBe(200);
    await call('post', '/insurance/products/payout-curve', { caller: insurer, body: { ...curve, sheet: broken } });
    await call('post', '/insurance/products/payout-curve', { caller: insurer, body: { ...curve, phase: 'none' } });
    const backtest = {
      product: { product_id: 'walk-rain-days' },
      locations: [{ source_id: ids.source_id, location: '-1.25,36.75' }],
      seasons: { from: 2020, to: 2024 },
    };
    const asked = await call('post', '/insurance/products/backtest', { caller: insurer, body: backtest });
    expect(asked.status).toBe(202);
    ids.job_id = asked.body.job_id;
    const notOver = { ...backtest, seasons: { from: 2020, to: 2099 } };
    await call('post', '/insurance/products/backtest', { caller: insurer, body: notOver });
    await call('post', '/insurance/products/backtest', { caller: insurer, body: { ...backtest, sheet } });
    await call('get', '/insurance/products/backtests/{job_id}', { caller: insurer, params: ids });
    await call('get', '/insurance/products/backtests/{job_id}', { caller: insurer, params: { job_id: randomUUID() } });
    await call('post', '/insurance/products/{product_id}/versions', { caller: insurer, params: ids, body: { sheet } });
    const renamed = { ...sheet, name: 'Rain-day cover, 2027 wording' };
    const next = { caller: insurer, params: ids, body: { sheet: renamed }, headers: { 'If-Match': '"v1"' } };
    expect((await call('post', '/insurance/products/{product_id}/versions', next)).status).toBe(201);
    await call('post', '/insurance/products/{product_id}/versions', { ...next, body: { sheet } });
    await call('post', '/insurance/products/{product_id}/versions/{version}/retire', { caller: insurer, params: ids });
    await call('post', '/insurance/products/{product_id}/versions/{version}/retire', {
      caller: insurer,
      params: { product_id: 'default', version: '1' },
    });
    await call('get', '/insurance/products', { caller: auditor });
    await call('get', '/insurance/products/{product_id}', { caller: insurer, params: ids });
    await call('get', '/insurance/products/{product_id}', { caller: insurer, params: { product_id: 'default' } });
    await call('get', '/insurance/products/{product_id}/versions/{version}', { caller: auditor, params: ids });
    await call('get', '/insurance/products/{product_id}/versions/{version}', {
      caller: auditor,
      params: { product_id: 'default', version: '1' },
    });
    const quote = { farm_id: ids.farm_id, field_id: ids.field_id, perils: ['excess_rainfall'], sum_insured: 100_000 };
    expect(
      (
        await call('post', '/insurance/quote', {
          caller: insurer,
          body: { ...quote, product: { product_id: 'walk-rain-days' } },
        })
      ).status,
    ).toBe(200);
    await call('post', '/insurance/quote', {
      caller: insurer,
      body: { ...quote, product: { product_id: 'walk-rain-days', version: 1 } },
    });
    await call('post', '/insurance/quote', {
      caller: insurer,
      body: { ...quote, product: { product_id: 'no-such-product' } },
    });
  });

  it('answers the insurance flow, good and bad, only as documented', async () => {
    const cover = {
      farm_id: ids.farm_id,
      field_id: ids.field_id,
      perils: ['flood', 'storm'],
      sum_insured: 10000,
      currency: 'USD',
    };
    const term = { term_start: addDays(today(), -5), term_end: addDays(today(), 90) };
    expect((await call('post', '/insurance/quote', { caller: insurer, body: cover })).status).toBe(200);
    await call('post', '/insurance/quote', { caller: { ...insurer, roles: [] }, body: cover });
    await call('post', '/insurance/quote', { caller: insurer, body: { ...cover, farm_id: randomUUID() } });
    await call('post', '/insurance/quote', { caller: insurer, body: { ...cover, farm_id: ids.inactive_farm_id } });

    const issued = await call('post', '/insurance/policies', { caller: insurer, body: { ...cover, ...term } });
    expect(issued.status).toBe(201);
    ids.policy_id = issued.body.policy_id;
    const unpaid = await call('post', '/insurance/policies', { caller: insurer, body: { ...cover, ...term } });
    await call('post', '/insurance/policies', {
      caller: insurer,
      body: { ...cover, term_start: term.term_end, term_end: term.term_start },
    });
    await call('get', '/insurance/policies', { caller: insurer });
    await call('get', '/insurance/policies/{policy_id}', { caller: insurer, params: ids });
    await call('get', '/insurance/policies/{policy_id}', { caller: { ...insurer, org: 'org-other' }, params: ids });

    // A flood: 5-day rainfall 180 mm breaches the 150 mm trigger.
    await call('post', '/insurance/index-readings', {
      caller: feed,
      body: {
        readings: [40, 40, 40, 40, 20].map((value, offset) => ({
          farm_id: ids.farm_id,
          field_id: ids.field_id,
          index: 'rainfall_mm',
          date: addDays(term.term_start, offset),
          value,
        })),
      },
    });
    const evaluation = await call('post', '/insurance/policies/{policy_id}/evaluate', {
      caller: insurer,
      params: ids,
      body: {},
    });
    expect(evaluation.body.total_payout).toBeGreaterThan(0);
    await call('post', '/insurance/policies/{policy_id}/evaluate', {
      caller: insurer,
      params: ids,
      body: { as_of: addDays(today(), 3) },
    });
    await call('post', '/insurance/policies/{policy_id}/evaluate', {
      caller: insurer,
      params: ids,
      body: { as_of: addDays(today(), -1) },
    });
    const history = await call('get', '/insurance/policies/{policy_id}/evaluations', { caller: insurer, params: ids });
    ids.payout_id = history.body.items.find((item: { payout?: { payout_id: string } }) => item.payout)!
      .payout!.payout_id;
    await call('get', '/insurance/policies/{policy_id}/events', { caller: auditor, params: ids });
    await call('get', '/insurance/policies/{policy_id}/trigger-courses', { caller: auditor, params: ids });
    await call('get', '/insurance/policies/{policy_id}/events', { caller: { ...auditor, roles: [] }, params: ids });
    await call('post', '/insurance/payouts/{payout_id}/settle', { caller: insurer, params: ids });
    await call('post', '/insurance/payouts/{payout_id}/settle', { caller: insurer, params: ids });
    await call('post', '/insurance/policies/{policy_id}/lapse', {
      caller: insurer,
      params: ids,
      body: { reason: 'unpaid' },
    });
    const lapse = { caller: insurer, params: { policy_id: unpaid.body.policy_id }, body: { reason: 'unpaid' } };
    expect((await call('post', '/insurance/policies/{policy_id}/lapse', lapse)).status).toBe(200);
    await call('post', '/insurance/policies/{policy_id}/evaluate', { ...lapse, body: {} });
  });

  it('answers the webhook flow, good and bad, only as documented', async () => {
    const created = await call('post', '/insurance/webhooks/trigger-events', {
      caller: insurer,
      body: { url: 'https://receiver.example/hooks', description: 'claims' },
    });
    expect(created.status).toBe(201);
    ids.webhook_id = created.body.webhook_id;
    await call('post', '/insurance/webhooks/trigger-events', { caller: insurer, body: { url: 'ftp://x' } });
    await call('get', '/insurance/webhooks', { caller: insurer });
    await call('get', '/insurance/webhooks/{webhook_id}', { caller: insurer, params: ids });
    await call('get', '/insurance/webhooks/{webhook_id}/deliveries', { caller: insurer, params: ids });
    await call('delete', '/insurance/webhooks/{webhook_id}', { caller: insurer, params: ids });
    await call('get', '/insurance/webhooks/{webhook_id}', { caller: { ...insurer, org: 'org-other' }, params: ids });
  });

  const operations = (): { method: Method; template: string }[] =>
    Object.entries(document.paths).flatMap(([template, item]) =>
      (Object.keys(item) as Method[]).map((method) => ({ method, template })),
    );

  it('answers every operation’s generic refusals only as documented', { timeout: 300_000 }, async () => {
    // Operations side by side, each one's probes in turn: the walk is bound by Prism's validation.
    await Promise.all(
      operations().map(async ({ method, template }) => {
        const params = ids;
        const caller = fresh(permittedCaller(template));
        await call(method, template, { params });
        await call(method, template, { params, token: 'not.a.token' });
        await call(method, template, { params, caller: { sub: `walk-nobody-${randomUUID().slice(0, 8)}` } });
        await call(method, template, { params: {}, caller });
        if (method === 'get') {
          await call(method, template, { params, caller, query: '?page=0&page_size=1000&include_inactive=maybe' });
          return;
        }
        await call(method, template, {
          params,
          caller,
          rawBody: 'plain text',
          headers: { 'content-type': 'text/plain' },
        });
        await call(method, template, { params, caller, ...json('{"unterminated'), bypassPrism: true });
        await call(method, template, {
          params,
          caller,
          ...json(JSON.stringify({ padding: 'x'.repeat(MIB) })),
          bypassPrism: true,
        });
        await call(method, template, { params, caller, body: { not_a_field: true } });
      }),
    );
  });

  it('answers every operation 429 only as documented once the caller used its allowance', {
    timeout: 300_000,
  }, async () => {
    // Drained straight at the service, then each operation once through Prism.
    const limited = fresh(insurer);
    const direct = apiClient(service.baseUrl);
    const drain = async (): Promise<void> => {
      for (let sent = 0; sent <= RATE_LIMIT_PER_MINUTE; sent++)
        if ((await direct.get('/insurance/policies', limited)).status === 429) return;
    };
    for (const { method, template } of operations()) {
      await drain();
      await call(method, template, { params: ids, caller: limited, body: method === 'get' ? undefined : {} });
    }
  });

  it('walked every operation, met every refusal the issue names, and Prism saw no response violation', () => {
    const walked = operations().map(({ method, template }) => `${method} ${template}`);
    expect(walked.filter((operation) => !observed.has(operation))).toEqual([]);
    const seen = new Set([...observed.values()].flatMap((statuses) => [...statuses]));
    expect([...seen].sort()).toEqual(
      expect.arrayContaining([200, 201, 204, 400, 401, 403, 404, 409, 412, 413, 415, 422, 429]),
    );
    expect(mismatches).toEqual([]);
    expect(prism.responseViolations()).toEqual([]);
    console.info(
      `openapi walk: ${walked.length} operations, ${prism.forwarded()} requests through Prism, ` +
        `statuses seen ${[...seen].sort().join(', ')}`,
    );
  });
});

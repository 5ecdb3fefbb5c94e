import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { Caller } from '../support/api-client';
import { expectProblem } from '../support/problem-assertions';
import { ISO_TIMESTAMP } from '../support/seed-shapes';
import { TEST_JWT_SECRET } from '../support/service-process';
import { serviceUnderTest } from '../support/service-under-test';

const FARM_KEYS = [
  'common_grown_crops',
  'country',
  'created_at',
  'currency',
  'farm_id',
  'farm_size',
  'farm_type',
  'farmer',
  'has_irrigation',
  'irrigation_type',
  'is_active',
  'location',
  'name',
  'organizations',
  'owner_id',
  'platform_farm_id',
  'registered_by_org_id',
  'soil_type',
  'tenure_type',
  'updated_at',
  'water_source',
];
const FARMER_KEYS = [
  'created_at',
  'data_consent_given',
  'farmer_id',
  'first_name',
  'is_active',
  'language',
  'last_name',
  'onboarding_status',
  'phone_number',
  'platform_farmer_id',
  'updated_at',
  'upload_channel',
  'whatsapp_number',
];

const suite = serviceUnderTest('e2e_registry');
const { api } = suite;
let callerCount = 0;
/** A fresh user per test, so tests do not share profiles. */
const newCaller = (extra: Partial<Caller> = {}): Caller => ({
  sub: `user-${++callerCount}-${Date.now()}`,
  givenName: 'Amina',
  familyName: 'Otieno',
  ...extra,
});
const admin: Caller = { sub: 'admin-1', roles: ['admin'] };

const createFarm = async (caller: Caller, body: Record<string, unknown> = { name: 'Shamba' }) => {
  const response = await api.post('/farms/create', caller, body);
  expect(response.status).toBe(201);
  return response.body;
};

describe('POST /farms/create (endpoint 8)', () => {
  it('creates a farm owned by the caller, with the seed shape field by field', async () => {
    const caller = newCaller();
    const response = await api.post('/farms/create', caller, { name: '  Shamba Kuu  ' });
    expect(response.status).toBe(201);
    const farm = response.body;
    expect(Object.keys(farm).sort()).toEqual(FARM_KEYS);
    expect(farm).toMatchObject({
      name: 'Shamba Kuu',
      has_irrigation: false,
      is_active: true,
      registered_by_org_id: null,
      farm_type: null,
      organizations: [],
    });
    expect(farm.farm_id).toEqual(expect.any(String));
    expect(farm.platform_farm_id).toMatch(/^PM-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(farm.created_at).toMatch(ISO_TIMESTAMP);
    expect(farm.updated_at).toBe(farm.created_at);
    expect(Object.keys(farm.farmer).sort()).toEqual(FARMER_KEYS);
    expect(farm.farmer).toMatchObject({
      first_name: 'Amina',
      last_name: 'Otieno',
      onboarding_status: 'pending',
      data_consent_given: false,
      is_active: true,
    });
    expect(farm.owner_id).toBe(farm.farmer.farmer_id);
    expect(farm.farmer.platform_farmer_id).toMatch(/^PF-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(response.headers.get('location')).toBe(`/farms/${farm.farm_id}`);
    expect(response.headers.get('consistency-token')).toMatch(/^\d+\.\d+$/);
  });

  it('keeps every optional field and is readable at once (read-your-writes)', async () => {
    const caller = newCaller();
    const body = {
      name: 'Mto Farm',
      farm_type: 'commercial',
      farm_size: 'large',
      tenure_type: 'leased',
      has_irrigation: true,
      irrigation_type: 'drip',
      water_source: 'borehole',
      common_grown_crops: ['maize', 'beans'],
      soil_type: 'loamy',
      currency: 'KES',
      location: 'Nakuru',
      country: 'KE',
    };
    const created = await createFarm(caller, body);
    expect(created).toMatchObject(body);
    const read = await api.get(`/farms/${created.farm_id}`, caller);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);
    expect(read.headers.get('etag')).toBe(`"${Date.parse(created.updated_at)}"`);
  });

  it('makes the profile from token claims once, with empty names when the token has none', async () => {
    const caller = newCaller({ givenName: undefined, familyName: undefined });
    const first = await createFarm(caller);
    const second = await createFarm(caller, { name: 'Second' });
    expect(first.farmer).toMatchObject({ first_name: '', last_name: '', onboarding_status: 'pending' });
    expect(second.owner_id).toBe(first.owner_id);
    expect(second.farmer.platform_farmer_id).toBe(first.farmer.platform_farmer_id);
  });

  describe('rejects bad input with 400 and creates nothing', () => {
    const cases: [string, string | Record<string, unknown>, string][] = [
      ['a missing name', { farm_type: 'commercial' }, 'name'],
      ['a name of blanks', { name: '   ' }, 'name'],
      ['a name over 200 characters', { name: 'x'.repeat(201) }, 'name'],
      ['a wrong type', { name: 42 }, 'name'],
      ['an unknown enum value', { name: 'A', farm_type: 'hobby' }, 'farm_type'],
      ['an unknown field', { name: 'A', acres: 10 }, 'acres'],
      ['a wrong type in a list', { name: 'A', common_grown_crops: [1] }, 'common_grown_crops.0'],
      ['a currency that is not ISO 4217', { name: 'A', currency: 'XYZ' }, 'currency'],
      ['malformed JSON', '{"name": ', ''],
    ];
    it.each(cases)('%s', async (_label, body, path) => {
      const caller = newCaller();
      const response =
        typeof body === 'string'
          ? await api.request('POST', '/farms/create', {
              caller,
              rawBody: body,
              headers: { 'content-type': 'application/json' },
            })
          : await api.post('/farms/create', caller, body);
      if (typeof body === 'string') {
        expectProblem(response, 400, 'malformed_json');
      } else {
        expectProblem(response, 400, 'validation_failed');
        expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
      }
      // Changed nothing: the caller still has no profile, so no farm could have been made.
      expect((await api.get('/farms/farmers/me', caller)).status).toBe(404);
    });
  });

  it('answers 413 for a body over 1 MiB and 415 for a body that is not JSON, creating nothing', async () => {
    const caller = newCaller();
    const huge = await api.post('/farms/create', caller, { name: 'A', location: 'x'.repeat(1024 * 1024 + 10) });
    expectProblem(huge, 413, 'payload_too_large');
    const text = await api.request('POST', '/farms/create', {
      caller,
      rawBody: 'name=A',
      headers: { 'content-type': 'text/plain' },
    });
    expectProblem(text, 415, 'unsupported_media_type');
    expect((await api.get('/farms/farmers/me', caller)).status).toBe(404);
  });
});

describe('authentication', () => {
  const secret = new TextEncoder().encode(TEST_JWT_SECRET);
  const unsignedToken = () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    return `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ sub: 'mallory', exp: Math.floor(Date.now() / 1000) + 600 })}.`;
  };
  const tokens: [string, () => Promise<string | undefined>][] = [
    ['missing', async () => undefined],
    ['malformed', async () => 'not-a-jwt'],
    [
      'expired',
      async () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject('u')
          .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
          .sign(secret),
    ],
    [
      'wrongly signed',
      async () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject('u')
          .setExpirationTime('1h')
          .sign(new TextEncoder().encode('another-secret-another-secret-another')),
    ],
    ['alg none', async () => unsignedToken()],
  ];
  it.each(tokens)('a %s token gets 401 with WWW-Authenticate and creates nothing', async (_label, makeToken) => {
    const token = await makeToken();
    const response = await api.request('POST', '/farms/create', { token, body: { name: 'Nope' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const read = await api.request('GET', '/farms/farmers/me', { token });
    expect(read.status).toBe(401);
  });
});

describe('GET /farms/{farm_id} (endpoint 9)', () => {
  it('is 404 for another user and for an unknown id, 200 for an admin', async () => {
    const owner = newCaller();
    const farm = await createFarm(owner);
    expectProblem(await api.get(`/farms/${farm.farm_id}`, newCaller()), 404, 'not_found');
    expectProblem(await api.get('/farms/no-such-farm', owner), 404, 'not_found');
    expect((await api.get(`/farms/${farm.farm_id}`, admin)).status).toBe(200);
  });

  it('rejects an unknown query parameter value', async () => {
    const owner = newCaller();
    const farm = await createFarm(owner);
    expectProblem(await api.get(`/farms/${farm.farm_id}?include_inactive=maybe`, owner), 400, 'validation_failed');
  });
});

describe('PUT /farms/{farm_id} (endpoint 10)', () => {
  it('changes only the given fields, clears with null, and moves updated_at on', async () => {
    const owner = newCaller();
    const farm = await createFarm(owner, {
      name: 'Old',
      farm_type: 'smallholder',
      country: 'KE',
      common_grown_crops: ['tea'],
    });
    const response = await api.put(`/farms/${farm.farm_id}`, owner, { name: 'New', country: null });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'New',
      country: null,
      farm_type: 'smallholder',
      common_grown_crops: ['tea'],
    });
    expect(Date.parse(response.body.updated_at)).toBeGreaterThan(Date.parse(farm.updated_at));
    expect(response.body.created_at).toBe(farm.created_at);
    expect((await api.get(`/farms/${farm.farm_id}`, owner)).body).toEqual(response.body);
  });

  it('is 409 version_conflict on a stale updated_at, 412 on a stale If-Match, and changes nothing', async () => {
    const owner = newCaller();
    const farm = await createFarm(owner, { name: 'Base' });
    const first = await api.put(`/farms/${farm.farm_id}`, owner, { name: 'First', updated_at: farm.updated_at });
    expect(first.status).toBe(200);
    const staleBody = await api.put(`/farms/${farm.farm_id}`, owner, { name: 'Lost', updated_at: farm.updated_at });
    expectProblem(staleBody, 409, 'version_conflict');
    const staleEtag = await api.put(
      `/farms/${farm.farm_id}`,
      owner,
      { name: 'Lost' },
      { 'if-match': `"${Date.parse(farm.updated_at)}"` },
    );
    expectProblem(staleEtag, 412, 'precondition_failed');
    expectProblem(
      await api.put(`/farms/${farm.farm_id}`, owner, { name: 'Lost' }, { 'if-match': '"not-a-version"' }),
      412,
      'precondition_failed',
    );
    const current = await api.get(`/farms/${farm.farm_id}`, owner);
    expect(current.body).toEqual(first.body);
    const fresh = await api.put(
      `/farms/${farm.farm_id}`,
      owner,
      { name: 'Second' },
      { 'if-match': current.headers.get('etag')! },
    );
    expect(fresh.status).toBe(200);
    expect(fresh.body.name).toBe('Second');
  });

  it('is 404 for another user, 400 for bad input, and neither changes anything', async () => {
    const owner = newCaller();
    const farm = await createFarm(owner, { name: 'Mine' });
    expectProblem(await api.put(`/farms/${farm.farm_id}`, newCaller(), { name: 'Theirs' }), 404, 'not_found');
    expectProblem(await api.put(`/farms/${farm.farm_id}`, owner, { soil_type: 'gravel' }), 400, 'validation_failed');
    expectProblem(await api.put(`/farms/${farm.farm_id}`, owner, { name: null }), 400, 'validation_failed');
    expectProblem(await api.put(`/farms/${farm.farm_id}`, owner, { owner_id: 'x' }), 400, 'validation_failed');
    expect((await api.get(`/farms/${farm.farm_id}`, owner)).body).toEqual(farm);
  });
});

describe('DELETE /farms/{farm_id} (endpoint 11)', () => {
  it('soft-deletes: 204, then 404 for GET, PUT and DELETE, visible to the owner with include_inactive', async () => {
    const owner = newCaller();
    const farm = await createFarm(owner);
    const kept = await createFarm(owner, { name: 'Kept' });
    expectProblem(await api.delete(`/farms/${farm.farm_id}`, newCaller()), 404, 'not_found');
    const deleted = await api.delete(`/farms/${farm.farm_id}`, owner);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expectProblem(await api.get(`/farms/${farm.farm_id}`, owner), 404, 'not_found');
    expectProblem(await api.put(`/farms/${farm.farm_id}`, owner, { name: 'Back' }), 404, 'not_found');
    expectProblem(await api.delete(`/farms/${farm.farm_id}`, owner), 404, 'not_found');
    const inactive = await api.get(`/farms/${farm.farm_id}?include_inactive=true`, owner);
    expect(inactive.status).toBe(200);
    expect(inactive.body).toMatchObject({ farm_id: farm.farm_id, is_active: false, name: farm.name });
    expectProblem(await api.get(`/farms/${farm.farm_id}?include_inactive=true`, newCaller()), 404, 'not_found');

    const lookup = await api.get(`/farms/farmers/${farm.farmer.platform_farmer_id}`, owner);
    expect(lookup.body.total_farms).toBe(1);
    expect(lookup.body.farms.map((f: { farm_id: string }) => f.farm_id)).toEqual([kept.farm_id]);
  });
});

describe('farmer profiles and GET /farms/farmers/{platform_farmer_id} (endpoint 12)', () => {
  it('creates a profile, refuses a second one, and updates it; consent completes onboarding', async () => {
    const caller = newCaller();
    const created = await api.post('/farms/farmers', caller, {
      first_name: 'Juma',
      last_name: 'Kariuki',
      language: 'sw',
      phone_number: '+254712345678',
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(FARMER_KEYS);
    expect(created.body).toMatchObject({
      first_name: 'Juma',
      onboarding_status: 'pending',
      data_consent_given: false,
      language: 'sw',
    });
    expectProblem(
      await api.post('/farms/farmers', caller, { first_name: 'Again', last_name: 'No' }),
      409,
      'farmer_profile_exists',
    );

    const updated = await api.put('/farms/farmers/me', caller, { data_consent_given: true, language: null });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      first_name: 'Juma',
      onboarding_status: 'completed',
      data_consent_given: true,
      language: null,
    });
    expect((await api.get('/farms/farmers/me', caller)).body).toEqual(updated.body);
    expectProblem(await api.put('/farms/farmers/me', caller, { phone_number: '0712' }), 400, 'validation_failed');
    expect((await api.get('/farms/farmers/me', caller)).body).toEqual(updated.body);
  });

  it('shows the owner their farmer always, others only after consent, case-insensitively', async () => {
    const owner = newCaller();
    const farm = await createFarm(owner);
    const code: string = farm.farmer.platform_farmer_id;
    const other = newCaller();

    const own = await api.get(`/farms/farmers/${code}`, owner);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ platform_farmer_id: code, total_farms: 1 });
    expect(Object.keys(own.body).sort()).toEqual([...FARMER_KEYS, 'farms', 'total_farms'].sort());
    expect(own.body.farms[0]).toEqual(farm);

    expectProblem(await api.get(`/farms/farmers/${code}`, other), 404, 'not_found');
    await api.put('/farms/farmers/me', owner, { data_consent_given: true });
    const shared = await api.get(`/farms/farmers/${code.toLowerCase()}`, other);
    expect(shared.status).toBe(200);
    expect(shared.body.farms).toHaveLength(1);
  });

  it('is 404 for a code with a wrong check character and for an unknown one', async () => {
    const caller = newCaller();
    expectProblem(await api.get('/farms/farmers/PF-00000001', caller), 404, 'not_found');
    expectProblem(await api.get('/farms/farmers/not-a-code', caller), 404, 'not_found');
    expectProblem(await api.get('/farms/farmers/me', caller), 404, 'farmer_profile_not_found');
  });
});

describe('fields', () => {
  it('registers fields, lists them, refuses duplicates and strangers, and bad input changes nothing', async () => {
    const owner = newCaller();
    const farm = await createFarm(owner);
    const body = {
      field_id: 'north',
      name: 'North plot',
      area_ha: 2.5,
      location: { lat: -1.29, lon: 36.82 },
      crop_type: 'maize',
    };
    const created = await api.post(`/farms/${farm.farm_id}/fields`, owner, body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...body, farm_id: farm.farm_id });
    expect(created.body.created_at).toMatch(ISO_TIMESTAMP);
    const generated = await api.post(`/farms/${farm.farm_id}/fields`, owner, {
      name: 'South',
      area_ha: 1,
      location: { lat: 0, lon: 0 },
    });
    expect(generated.status).toBe(201);
    expect(generated.body.crop_type).toBeNull();

    expectProblem(await api.post(`/farms/${farm.farm_id}/fields`, owner, body), 409, 'field_exists');
    expectProblem(
      await api.post(`/farms/${farm.farm_id}/fields`, newCaller(), { ...body, field_id: 'x' }),
      404,
      'not_found',
    );
    expectProblem(
      await api.post(`/farms/${farm.farm_id}/fields`, owner, { ...body, field_id: 'y', location: { lat: 91, lon: 0 } }),
      400,
      'validation_failed',
    );

    const list = await api.get(`/farms/${farm.farm_id}/fields`, owner);
    expect(list.status).toBe(200);
    expect(list.body.items.map((field: { field_id: string }) => field.field_id)).toEqual([
      'north',
      generated.body.field_id,
    ]);
    expectProblem(await api.get(`/farms/${farm.farm_id}/fields`, newCaller()), 404, 'not_found');
  });
});

describe('service surface', () => {
  it('serves health, readiness, metrics, OpenAPI and docs without a token', async () => {
    expect((await api.get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await api.get('/readyz')).status).toBe(200);
    const metrics = await fetch(`${suite.service.baseUrl}/metrics`);
    expect(await metrics.text()).toContain('http_request_duration_seconds');
    const openapi = await api.get('/openapi.json');
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/farms/create', '/farms/{farm_id}']));
    expect((await fetch(`${suite.service.baseUrl}/docs/`)).status).toBe(200);
  });

  it('answers an unknown route with a 404 problem, and echoes the request id', async () => {
    const response = await api.get('/nowhere', newCaller());
    expectProblem(response, 404, 'not_found');
    expect(response.headers.get('x-request-id')).toBe(response.body.request_id);
  });
});

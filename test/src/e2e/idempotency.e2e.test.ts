import { describe, expect, it } from 'vitest';
import type { Caller } from '../support/api-client';
import { serviceUnderTest } from '../support/service-under-test';

// Idempotency-Key through the service as `npm start` runs it (SPEC §5): a retried POST never creates a
// second farm, and every misuse of a key is refused without creating anything.

const suite = serviceUnderTest('e2e_idempotency');
const { api } = suite;
let callerCount = 0;
const newCaller = (): Caller => ({
  sub: `idem-${++callerCount}-${Date.now()}`,
  givenName: 'Amina',
  familyName: 'Otieno',
});

const createFarm = (caller: Caller, key: string, body: Record<string, unknown> = { name: 'Shamba' }) =>
  api.post('/farms/create', caller, body, { 'Idempotency-Key': key });

/** How many active farms the caller owns, from the farmer lookup; 0 when the caller has no profile yet. */
const farmCount = async (caller: Caller): Promise<number> => {
  const me = await api.get('/farms/farmers/me', caller);
  if (me.status === 404) return 0;
  const lookup = await api.get(`/farms/farmers/${me.body.platform_farmer_id}`, caller);
  expect(lookup.status).toBe(200);
  return lookup.body.total_farms;
};

describe('Idempotency-Key on POST /farms/create', () => {
  it('replays the first answer to a retry and creates one farm', async () => {
    const caller = newCaller();
    const first = await createFarm(caller, 'create-1');
    const retry = await createFarm(caller, 'create-1');
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    for (const header of ['location', 'etag', 'consistency-token', 'content-type'])
      expect(retry.headers.get(header)).toBe(first.headers.get(header));
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await farmCount(caller)).toBe(1);
    expect((await api.get(`/farms/${first.body.farm_id}`, caller)).body).toMatchObject({ name: 'Shamba' });
  });

  it('refuses the key with another body (422) and creates nothing', async () => {
    const caller = newCaller();
    await createFarm(caller, 'create-2', { name: 'Shamba' });
    const reused = await createFarm(caller, 'create-2', { name: 'Another farm' });
    expect(reused.status).toBe(422);
    expect(reused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(reused.body).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    expect(await farmCount(caller)).toBe(1);
  });

  it('runs simultaneous retries once: one farm, every other answer a replay or 409 in flight', async () => {
    const caller = newCaller();
    const responses = await Promise.all(Array.from({ length: 6 }, () => createFarm(caller, 'create-race')));
    const created = responses.filter((response) => response.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const response of created) expect(response.body).toEqual(created[0]!.body);
    for (const response of responses.filter((response) => response.status !== 201))
      expect(response.body).toMatchObject({ status: 409, code: 'idempotency_key_in_flight' });
    expect(await farmCount(caller)).toBe(1);
  });

  it('keeps callers apart: the same key from two users creates a farm for each', async () => {
    const amina = newCaller();
    const baraka = newCaller();
    const hers = await createFarm(amina, 'shared-key');
    const his = await createFarm(baraka, 'shared-key');
    expect([hers.status, his.status]).toEqual([201, 201]);
    expect(his.body.farm_id).not.toBe(hers.body.farm_id);
    expect(await farmCount(amina)).toBe(1);
    expect(await farmCount(baraka)).toBe(1);
  });

  it('refuses a malformed key with 400 and creates nothing', async () => {
    const caller = newCaller();
    const response = await createFarm(caller, 'k'.repeat(256));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 400, code: 'invalid_idempotency_key' });
    expect(await farmCount(caller)).toBe(0);
  });

  it('replays a refusal too: an invalid body keeps its 400 under its key', async () => {
    const caller = newCaller();
    const refused = await createFarm(caller, 'create-bad', { name: '' });
    const again = await createFarm(caller, 'create-bad', { name: '' });
    expect(refused.body).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(again.body).toEqual(refused.body);
    expect(await farmCount(caller)).toBe(0);
  });
});

import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiResponse, apiClient, type Caller } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { grantInsurance } from '../support/farm-access';
import { type RunningService, startProcess } from '../support/service-process';

// Issue 11, fault 3: a keyed create whose events were appended but whose answer was lost (the command API
// killed in between) ran again once the key's claim expired — a second farm, a 409 `field_exists` for the
// caller's own write. Here the projector is stopped, so every write waits (5 s) for read models that do
// not move: the test sees the write land in the log, SIGKILLs the command API before it answers, starts a
// new one and retries with the same key.

const commandApi = ['node_modules/.bin/tsx', 'service/src/processes/command-api.ts'];
const projectorProcess = ['node_modules/.bin/tsx', 'service/src/processes/projector.ts'];

let database: TestDatabase;
let client: pg.Client;
let projector: RunningService | undefined;
let api: RunningService | undefined;
let env: Record<string, string>;

const owner: Caller = { sub: `crash-farmer-${Date.now()}`, givenName: 'Amina', familyName: 'Otieno' };
const insurer: Caller = { sub: 'crash-underwriter', org: 'org-crash', roles: ['insurer'] };

const eventsOfType = async (type: string): Promise<{ stream_id: string; data: any }[]> =>
  (await client.query('select stream_id, data from events_json where event_type = $1 order by global_position', [type]))
    .rows;

/** Sends a keyed POST, waits for its event in the log, and kills the command API before it answers. */
const crashAfterAppend = async (path: string, caller: Caller, body: unknown, key: string, eventType: string) => {
  const before = (await eventsOfType(eventType)).length;
  const answer = apiClient(api!.baseUrl)
    .post(path, caller, body, { 'Idempotency-Key': key })
    .catch((error: unknown) => error);
  await vi.waitFor(async () => expect((await eventsOfType(eventType)).length).toBe(before + 1), {
    timeout: 10_000,
    interval: 20,
  });
  await api!.kill();
  expect(await answer).toBeInstanceOf(Error);
  api = await startProcess(commandApi, env, '/readyz');
};

/** The client's retry: while the dead process's claim is still held (up to 10 s) it is told to retry
 *  (409), and then gets the answer once its wait for the read models ran out — with a Consistency-Token,
 *  or the client could not ask the query API for its write. */
const retry = async (path: string, caller: Caller, body: unknown, key: string): Promise<ApiResponse> => {
  let response: ApiResponse | undefined;
  await vi.waitFor(
    async () => {
      response = await apiClient(api!.baseUrl).post(path, caller, body, { 'Idempotency-Key': key });
      expect(response.status).not.toBe(409);
    },
    { timeout: 30_000, interval: 500 },
  );
  expect(response!.headers.get('consistency-token')).toMatch(/^\d+\.\d+$/);
  expect(response!.headers.get('consistency-status')).toBe('behind');
  return response!;
};

beforeAll(async () => {
  database = await createTestDatabase('fault_idempotency_crash');
  env = { DATABASE_URL: database.url, READ_YOUR_WRITES_TIMEOUT_MS: '5000', MONITOR_ENABLED: 'false' };
  projector = await startProcess(projectorProcess, env, '/healthz');
  api = await startProcess(commandApi, env, '/readyz');
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
}, 120_000);

afterAll(async () => {
  await client?.end();
  await api?.stop();
  await projector?.stop();
  await database?.drop();
});

describe('a keyed create killed between append and answer', () => {
  let farmId: string;

  it('is set up with a farm while the projector runs, then the projector stops', async () => {
    const farm = await apiClient(api!.baseUrl).post('/farms/create', owner, { name: 'Setup farm' });
    expect(farm.status).toBe(201);
    farmId = farm.body.farm_id;
    await grantInsurance(apiClient(api!.baseUrl), owner, farmId, insurer.org!);
    await projector!.stop();
    projector = undefined;
  }, 30_000);

  it('creates one farm, and the retry answers with it', async () => {
    const body = { name: 'Crash farm' };
    await crashAfterAppend('/farms/create', owner, body, 'farm-crash-1', 'FarmRegistered');
    const answered = await retry('/farms/create', owner, body, 'farm-crash-1');
    expect(answered.status).toBe(201);
    // The log holds the farm's name sealed (SPEC §6), so the crash's farm is told by not being the setup's.
    const registered = (await eventsOfType('FarmRegistered')).filter((event) => event.stream_id !== `farm-${farmId}`);
    expect(registered).toHaveLength(1);
    expect(registered[0]!.stream_id).toBe(`farm-${answered.body.farm_id}`);
  }, 60_000);

  it('registers one field, and the retry answers 201 with it, not field_exists', async () => {
    const body = { name: 'Crash plot', area_ha: 1.5, location: { lat: -1.29, lon: 36.82 } };
    await crashAfterAppend(`/farms/${farmId}/fields`, owner, body, 'field-crash-1', 'FieldRegistered');
    const answered = await retry(`/farms/${farmId}/fields`, owner, body, 'field-crash-1');
    expect(answered.status).toBe(201);
    const registered = (await eventsOfType('FieldRegistered')).filter((event) => event.data.name === 'Crash plot');
    expect(registered).toHaveLength(1);
    expect(answered.body.field_id).toBe(registered[0]!.data.field_id);
  }, 60_000);

  it('issues one policy, and the retry answers with it', async () => {
    const fields = (await eventsOfType('FieldRegistered')).filter((event) => event.data.farm_id === farmId);
    const body = {
      farm_id: farmId,
      field_id: fields[0]!.data.field_id,
      perils: ['flood'],
      sum_insured: 10_000,
      currency: 'USD',
      term_start: addDays(today(), -5),
      term_end: addDays(today(), 90),
    };
    await crashAfterAppend('/insurance/policies', insurer, body, 'policy-crash-1', 'PolicyIssued');
    const answered = await retry('/insurance/policies', insurer, body, 'policy-crash-1');
    expect(answered.status).toBe(201);
    const issued = await eventsOfType('PolicyIssued');
    expect(issued).toHaveLength(1);
    expect(answered.body.policy_id).toBe(issued[0]!.data.policy_id);
  }, 60_000);

  it('evaluates once, and the retry answers with the payout that evaluation made', async () => {
    const [issued] = await eventsOfType('PolicyIssued');
    const { farm_id, field_id, policy_id } = issued!.data;
    // 5-day rainfall of 180 mm breaches the flood trigger (severity 0.2) on the days the term has had.
    const readings = [40, 40, 40, 40, 20].map((value, offset) => ({
      farm_id,
      field_id,
      index: 'rainfall_mm',
      date: addDays(today(), offset - 4),
      value,
    }));
    const provider: Caller = { sub: 'crash-feed', org: insurer.org, roles: ['data_provider'] };
    expect((await apiClient(api!.baseUrl).post('/insurance/index-readings', provider, { readings })).status).toBe(200);
    const path = `/insurance/policies/${policy_id}/evaluate`;
    await crashAfterAppend(path, insurer, {}, 'evaluate-crash-1', 'PayoutApproved');
    const answered = await retry(path, insurer, {}, 'evaluate-crash-1');
    expect(answered.status).toBe(200);
    expect(await eventsOfType('TriggerEvaluated')).toHaveLength(1);
    const approved = await eventsOfType('PayoutApproved');
    expect(approved).toHaveLength(1);
    expect(answered.body).toMatchObject({ payout_count: 1, total_payout: approved[0]!.data.amount_minor / 100 });
  }, 60_000);
});

import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client';
import { type RunningService, startProcess } from '../support/service-process';

// The production topology: command API, query API and projector as three processes sharing one
// database. A write on the command API is visible on the query API once its Consistency-Token is honoured.

let database: TestDatabase;
const processes: RunningService[] = [];

beforeAll(async () => {
  database = await createTestDatabase('e2e_topology');
  // A short bound on read-your-writes waits, for the test that stops the projector.
  const env = { DATABASE_URL: database.url, READ_YOUR_WRITES_TIMEOUT_MS: '1500' };
  // The projector first: it creates the read-model tables the query API reads.
  processes.push(await startProcess(['node_modules/.bin/tsx', 'service/src/processes/projector.ts'], env, '/healthz'));
  processes.push(await startProcess(['node_modules/.bin/tsx', 'service/src/processes/command-api.ts'], env, '/readyz'));
  processes.push(await startProcess(['node_modules/.bin/tsx', 'service/src/processes/query-api.ts'], env, '/readyz'));
}, 120_000);

afterAll(async () => {
  for (const process of processes.reverse()) await process.stop();
  await database?.drop();
});

describe('each service on its own', () => {
  it('reads on the query API what was written on the command API', async () => {
    const [, commandApi, queryApi] = processes;
    const caller = { sub: 'topology-user', givenName: 'Wanjiru', familyName: 'Mwangi' };
    const created = await apiClient(commandApi!.baseUrl).post('/farms/create', caller, { name: 'Split farm' });
    expect(created.status).toBe(201);
    const token = created.headers.get('consistency-token')!;
    expect(token).toMatch(/^\d+\.\d+$/);
    expect(created.headers.get('consistency-status')).toBe('current');

    const read = await apiClient(queryApi!.baseUrl).get(`/farms/${created.body.farm_id}`, caller, {
      'consistency-token': token,
    });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    expect(read.headers.get('consistency-status')).toBe('current');
    expect(
      (await apiClient(queryApi!.baseUrl).get('/farms/x', caller, { 'consistency-token': 'nonsense' })).status,
    ).toBe(400);
  });

  it('routes writes to the command API only and reads to the query API only', async () => {
    const [, commandApi, queryApi] = processes;
    const caller = { sub: 'topology-user-2' };
    expect((await apiClient(commandApi!.baseUrl).get('/farms/farmers/me', caller)).status).toBe(404);
    expect((await apiClient(queryApi!.baseUrl).post('/farms/create', caller, { name: 'x' })).status).toBe(404);
  });

  // Last: it stops the projector. Issue 11, fault 6: a write whose wait for the read models ran out used
  // to answer 2xx with nothing to say so.
  it('says when the read models are behind, in a header and a metric, and still answers', async () => {
    const [projector, commandApi, queryApi] = processes;
    await projector!.stop();
    const caller = { sub: 'topology-user-3', givenName: 'Achieng', familyName: 'Odhiambo' };
    const created = await apiClient(commandApi!.baseUrl).post('/farms/create', caller, { name: 'Unprojected farm' });
    expect(created.status).toBe(201);
    expect(created.headers.get('consistency-status')).toBe('behind');
    const read = await apiClient(queryApi!.baseUrl).get(`/farms/${created.body.farm_id}`, caller, {
      'consistency-token': created.headers.get('consistency-token')!,
    });
    expect(read.status).toBe(404);
    expect(read.headers.get('consistency-status')).toBe('behind');
    for (const api of [commandApi!, queryApi!]) {
      const metrics = await (await fetch(`${api.baseUrl}/metrics`)).text();
      expect(metrics).toMatch(/^cropcover_read_your_writes_timeouts_total 1$/m);
    }
  }, 30_000);
});

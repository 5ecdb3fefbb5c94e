import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, type Caller } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { grantInsurance } from '../support/farm-access';
import { expectProblem } from '../support/problem-assertions';
import { type RunningService, startProcess } from '../support/service-process';

// The binding check across processes (SPEC §7): two command API processes against one PostgreSQL issue at
// once into the same zone of one programme. Each process serialises its own issues per programme; between
// them only the programme stream's expected revision decides, so exactly the issues that fit are written.

let database: TestDatabase;
const processes: RunningService[] = [];

const insurer: Caller = { sub: 'underwriter', org: 'org-two-apis', roles: ['insurer'] };

beforeAll(async () => {
  database = await createTestDatabase('e2e_capacity_processes');
  const env = { DATABASE_URL: database.url };
  // The projector first: it creates the read-model tables the others read.
  processes.push(await startProcess(['node_modules/.bin/tsx', 'service/src/processes/projector.ts'], env, '/healthz'));
  processes.push(await startProcess(['node_modules/.bin/tsx', 'service/src/processes/command-api.ts'], env, '/readyz'));
  processes.push(await startProcess(['node_modules/.bin/tsx', 'service/src/processes/command-api.ts'], env, '/readyz'));
  processes.push(await startProcess(['node_modules/.bin/tsx', 'service/src/processes/query-api.ts'], env, '/readyz'));
}, 240_000);

afterAll(async () => {
  for (const process of processes.reverse()) await process.stop();
  await database?.drop();
});

describe('capacity under issues from two command API processes', () => {
  it('of 50 issues of 100,000 split over two processes against 1,000,000, exactly 10 are written', async () => {
    const [, first, second, query] = processes.map((process) => apiClient(process.baseUrl));
    const owner: Caller = { sub: 'farmer-two-apis', givenName: 'Aline', familyName: 'Uwase' };
    const farm = await first!.post('/farms/create', owner, { name: 'Shared cell' });
    expect(farm.status).toBe(201);
    await grantInsurance(first!, owner, farm.body.farm_id, insurer.org!);
    const field = await first!.post(`/farms/${farm.body.farm_id}/fields`, owner, {
      field_id: 'plot-1',
      name: 'Valley plot',
      area_ha: 2,
      location: { lat: -1.95, lon: 30.06 },
      crop_type: 'beans',
    });
    expect(field.status).toBe(201);
    const programme = await second!.post('/insurance/programmes', insurer, {
      name: 'one cell',
      currency: 'RWF',
      capacity: { zone_default: 1_000_000 },
    });
    expect(programme.status).toBe(201);
    const issueRequest = {
      farm_id: farm.body.farm_id,
      field_id: 'plot-1',
      perils: ['flood'],
      sum_insured: 100_000,
      currency: 'RWF',
      term_start: today(),
      term_end: addDays(today(), 89),
      programme_id: programme.body.programme_id,
    };

    // One issue through each process first: both have written to the programme and hold its state, so
    // each of the 48 racing after that meets a stream the other process has moved.
    const warmUp = [
      await first!.post('/insurance/policies', insurer, issueRequest),
      await second!.post('/insurance/policies', insurer, issueRequest),
    ];
    const racing = await Promise.all(
      Array.from({ length: 48 }, (_, at) =>
        (at % 2 === 0 ? first! : second!).post('/insurance/policies', insurer, issueRequest),
      ),
    );
    const responses = [...warmUp, ...racing];
    const issued = responses.filter((response) => response.status === 201);
    expect(issued).toHaveLength(10);
    expect(responses.filter((response) => response.status === 422)).toHaveLength(40);
    for (const refused of responses.filter((response) => response.status === 422)) {
      expectProblem(refused, 422, 'capacity_exceeded');
    }
    expect(warmUp.map((response) => response.status)).toEqual([201, 201]);

    await vi.waitFor(
      async () => {
        const exposure = await query!.get(`/insurance/programmes/${programme.body.programme_id}/exposure`, insurer);
        expect(exposure.body.totals).toMatchObject({ policies: 10, sum_insured: 1_000_000 });
        expect(exposure.body.items).toEqual([expect.objectContaining({ sum_insured: 1_000_000, utilisation: 1 })]);
      },
      { timeout: 20_000, interval: 100 },
    );
  }, 120_000);
});

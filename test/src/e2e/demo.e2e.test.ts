import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client';
import { type RunningService, repositoryRoot, startService, TEST_JWT_SECRET } from '../support/service-process';

// `npm run demo` as the README's second walk-through runs it, against the service as `npm start` runs it.

let database: TestDatabase;
let service: RunningService;

beforeAll(async () => {
  database = await createTestDatabase('e2e_demo');
  service = await startService({ DATABASE_URL: database.url, MONITOR_ENABLED: 'false' });
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await database?.drop();
});

describe('npm run demo', () => {
  it('walks a flood from one grid cell’s readings to two fields’ payouts, with a backtest on last season', async () => {
    const { stdout } = await promisify(execFile)('npm', ['run', 'demo', '--silent'], {
      cwd: repositoryRoot,
      env: { ...process.env, BASE_URL: service.baseUrl, AUTH_JWT_SECRET: TEST_JWT_SECRET },
    });
    expect(stdout).toContain('365 days of rainfall for the grid cell and 730 field readings');
    expect(stdout).toContain('flood reads grid cell -0.35,36.05 of source');
    expect(stdout).toContain('premium KES 12,500.00, status active');
    expect(stdout).toMatch(
      /Backtest.*\n\s+flood\s+max_5day_rainfall_mm = 200 \(threshold 150\): BREACHED, severity 33\.33 %/,
    );
    expect(stdout).toContain('would have paid KES 83,333.25');
    expect(stdout).toContain('max_5day_rainfall_mm = 240 (threshold 150): BREACHED, severity 60 %');
    expect(stdout).toContain('payout KES 150,000.00 in 1 payout(s); policy is now claimed');
    expect(stdout).toContain(
      "Mwangi farm's Hill plot lies in the same cell (-0.35,36.05): flood cover of KES 100,000.00 pays KES 60,000.00 from the same series",
    );

    const policyId = /Policy {4}(\S+) issued/.exec(stdout)?.[1];
    const policy = await apiClient(service.baseUrl).get(`/insurance/policies/${policyId}`, {
      sub: 'someone-at-the-insurer',
      org: 'demo-insurer',
      roles: ['insurer'],
    });
    expect(policy.body).toMatchObject({ status: 'claimed', perils: ['flood', 'storm'], currency: 'KES' });
  }, 60_000);
});

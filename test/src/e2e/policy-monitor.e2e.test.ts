import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningService, startProcess, startService } from '../support/service-process';

// Where the policy monitor runs: in the all-in-one service unless MONITOR_ENABLED=false, and as a
// process of its own in the production topology. Its counters on /metrics show whether it runs.

const EVALUATED_METRIC = 'policy_monitor_policies_evaluated_total';

let database: TestDatabase;
const running: RunningService[] = [];

const metricsOf = async (service: RunningService): Promise<string> => {
  const response = await fetch(`${service.baseUrl}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
};

beforeAll(async () => {
  database = await createTestDatabase('e2e_monitor');
}, 60_000);

afterAll(async () => {
  for (const service of running.reverse()) await service.stop();
  await database?.drop();
});

describe('the policy monitor', () => {
  it('does not run in the all-in-one service with MONITOR_ENABLED=false', async () => {
    const service = await startService({ DATABASE_URL: database.url, MONITOR_ENABLED: 'false' });
    running.push(service);
    expect(await metricsOf(service)).not.toContain(EVALUATED_METRIC);
    await service.stop();
  }, 120_000);

  it('runs in the all-in-one service by default', async () => {
    const service = await startService({ DATABASE_URL: database.url });
    running.push(service);
    expect(await metricsOf(service)).toContain(`${EVALUATED_METRIC} 0`);
  }, 120_000);

  it('runs as a process of its own next to the service, on the same database', async () => {
    const monitor = await startProcess(
      ['node_modules/.bin/tsx', 'service/src/processes/monitor.ts'],
      { DATABASE_URL: database.url, LOG_LEVEL: 'info' },
      '/healthz',
    );
    running.push(monitor);
    expect(await metricsOf(monitor)).toContain(`${EVALUATED_METRIC} 0`);
    // /healthz answers as soon as it listens; the line is logged once every part has started.
    await vi.waitFor(() => expect(monitor.output()).toContain('policy monitor serving /healthz and /metrics'), {
      timeout: 30_000,
      interval: 100,
    });
    expect(monitor.output()).not.toContain('"level":"error"');
  }, 120_000);
});

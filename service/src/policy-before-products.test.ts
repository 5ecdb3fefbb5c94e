import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  BACKTEST_THEN,
  EVENTS_DECIDED_THEN,
  POLICY_ISSUED_BEFORE_PRODUCTS,
  READINGS_OF_ITS_TERM,
} from '@cropcover/domain/testing';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '@cropcover/projector/testing';
import { signDevToken } from '@cropcover/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// TERM-SHEETS.md §4, backward compatibility, through `npm start`: a log holding a policy issued before
// products (PolicyIssued without a sheet, and the evaluations decided then) and the readings of its term.
// The service reads it as `default` version 0 built from its own triggers, shows what it paid then, and
// backtests it exactly as it did.

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = 'policy-before-products-test-secret-of-32-characters';
const insurer = { sub: 'underwriter', org: 'org-1', roles: ['insurer'] };
const ISSUED_AT = '2026-03-30T09:15:00.000Z';

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error())));
    });
  });

const metadataOf = (occurredAt: string) => ({
  event_id: randomUUID(),
  occurred_at: occurredAt,
  actor: 'underwriter',
  organization_id: 'org-1',
  correlation_id: randomUUID(),
  causation_id: null,
  schema_version: 1,
  platform_version: '0.1.0',
});

describe('a policy issued before products, in a log the service starts on', () => {
  let t: ProjectorTestDatabase;
  let child: ChildProcess;
  let baseUrl: string;

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const token = await signDevToken(insurer, SECRET);
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

  beforeAll(async () => {
    t = await openProjectorTestDatabase('service_policy_before_products');
    const events = [POLICY_ISSUED_BEFORE_PRODUCTS, ...EVENTS_DECIDED_THEN];
    await t.eventStore.append(
      'policy-policy-2025',
      events.map(({ type, data }) => ({
        type,
        data,
        metadata: metadataOf(ISSUED_AT),
      })),
      'no_stream',
    );
    const { rain, ndvi, wind } = READINGS_OF_ITS_TERM;
    const rows = [
      ...rain.map((reading) => ({ ...reading, index: 'rainfall_mm' })),
      ...ndvi.map((reading) => ({ ...reading, index: 'ndvi' })),
      ...wind.map((reading) => ({ ...reading, index: 'wind_speed_ms' })),
    ].map(({ date, value, revision, index }) => ({
      source_id: 'organization-fields:org-1',
      location: 'farm-1/north',
      index,
      date,
      value,
      note: null,
      revision,
      recorded_at: '2026-07-20T06:00:00.000Z',
      recorded_by: null,
    }));
    await t.db.insertInto('index_readings').values(rows).execute();

    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    child = spawn('npm', ['start', '--silent'], {
      cwd: repositoryRoot,
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: t.url,
        AUTH_JWT_SECRET: SECRET,
        LOG_LEVEL: 'warn',
        KAFKA_BROKERS: '',
        MONITOR_ENABLED: 'false',
      },
      stdio: 'ignore',
      detached: true,
    });
    // Ready once the projector has read the log: the policy is in the read model.
    for (let tries = 0; ; tries += 1) {
      try {
        if ((await call('GET', '/insurance/policies/policy-2025')).status === 200) break;
      } catch {
        // not listening yet
      }
      if (tries > 600) throw new Error('the service did not come up with the policy');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 180_000);

  afterAll(async () => {
    if (child?.pid !== undefined && child.exitCode === null) {
      process.kill(-child.pid, 'SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await t?.close();
  });

  it('is shown as `default` version 0 with what it paid then', async () => {
    const policy = await call('GET', '/insurance/policies/policy-2025');
    expect(policy.body.product).toMatchObject({ product_id: 'default', version: 0 });
    expect(policy.body.triggers.map((trigger: { peril: string }) => trigger.peril)).toEqual([
      'drought',
      'flood',
      'vegetation_stress',
      'storm',
    ]);
    const history = await call('GET', '/insurance/policies/policy-2025/evaluations?page_size=100');
    expect(history.status).toBe(200);
    const paid = history.body.items.flatMap((item: { payout?: { amount: number } }) =>
      item.payout === undefined ? [] : [item.payout.amount],
    );
    expect(paid.sort()).toEqual([16666.67, 35596.7, 71193.41].sort());
  });

  it('backtests to the minor unit as it did then', async () => {
    const backtest = await call('POST', '/insurance/policies/policy-2025/evaluate', { as_of: '2026-07-10' });
    expect(backtest.status).toBe(200);
    const { policy_status: _then, ...decided } = BACKTEST_THEN;
    expect(backtest.body).toMatchObject(decided);
  });
});

import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client';
import { breachablePolicy, evaluate, newInsurer, subscribe, verified } from '../support/breachable-policy';
import { type RunningService, startService } from '../support/service-process';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

// The audit trail's own faults (SPEC §10, issue 32 item 1), through `npm start`: every database's log has
// an id and a checkpoint sink of its own, so a second database on one checkout (the default DATA_DIR)
// delivers its breach webhooks as the first did; a sink holding another log's checkpoints stops the start
// with a message that says what to do; and a sink that fails while the service runs shows in /readyz,
// /metrics and the log, while payouts are still decided.

const SERVICE_ENV = { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_RETRY_SCALE: '0.001', MONITOR_ENABLED: 'false' };

describe("the audit log's checkpoint sink", () => {
  let receiver: WebhookReceiver;
  const databases: TestDatabase[] = [];
  const database = async (name: string) => {
    const created = await createTestDatabase(name);
    databases.push(created);
    return created;
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    for (const created of databases) await created.drop();
  });

  /** A breach through the API, answered by its signed trigger.breached delivery. */
  const breachDelivered = async (service: RunningService, path: string) => {
    const api = apiClient(service.baseUrl);
    const insurer = newInsurer();
    const subscription = await subscribe(api, insurer, receiver.url(path));
    const policy = await breachablePolicy(api, insurer);
    await evaluate(api, insurer, policy.policy_id);
    const request = await eventually(() => receiver.received(path)[0], 30_000);
    expect(verified(subscription.raw_secret, request).data.policy_id).toBe(policy.policy_id);
  };

  it('delivers the breach webhooks of two databases run one after the other on one checkout', async () => {
    for (const name of ['e2e_audit_sink_first', 'e2e_audit_sink_second']) {
      const service = await startService({ DATABASE_URL: (await database(name)).url, ...SERVICE_ENV });
      try {
        await breachDelivered(service, `/${name}`);
        expect((await fetch(`${service.baseUrl}/readyz`)).status).toBe(200);
      } finally {
        await service.stop();
      }
    }
  }, 240_000);

  it("refuses to start on a sink holding another log's checkpoints, saying what to do", async () => {
    const sink = await mkdtemp(join(tmpdir(), 'cropcover-audit-sink-'));
    const owner = await startService({
      DATABASE_URL: (await database('e2e_audit_sink_owner')).url,
      AUDIT_CHECKPOINT_DIR: sink,
      ...SERVICE_ENV,
    });
    await subscribe(apiClient(owner.baseUrl), newInsurer(), receiver.url('/owner'));
    await eventually(async () => (await readdir(sink)).some((name) => name.endsWith('.checkpoint')));
    await owner.stop();

    const intruder = (await database('e2e_audit_sink_intruder')).url;
    const refusal =
      /AUDIT_CHECKPOINT_DIR: \S+ holds another audit log's checkpoints \((?<why>[^)]+)\); this database's log is [0-9a-f-]{36}\. One log, one sink: point AUDIT_CHECKPOINT_DIR at a directory of this log's own \(a new, empty one\), or unset it to use <DATA_DIR>\/audit-checkpoints\/[0-9a-f-]{36}\./;
    await expect(startService({ DATABASE_URL: intruder, AUDIT_CHECKPOINT_DIR: sink, ...SERVICE_ENV })).rejects.toThrow(
      refusal,
    );
    // A sink written before logs had ids has no claim: its checkpoints are compared with the log's own.
    await rm(join(sink, 'log-id'));
    await expect(startService({ DATABASE_URL: intruder, AUDIT_CHECKPOINT_DIR: sink, ...SERVICE_ENV })).rejects.toThrow(
      /holds another audit log's checkpoints \(its \d+\.checkpoint is not a checkpoint this log signed\)/,
    );
  }, 240_000);

  it('shows a failing sink in /readyz, /metrics and the log while payouts are decided, and recovers', async () => {
    const sink = join(await mkdtemp(join(tmpdir(), 'cropcover-audit-sink-')), 'checkpoints');
    const service = await startService({
      DATABASE_URL: (await database('e2e_audit_sink_failing')).url,
      AUDIT_CHECKPOINT_DIR: sink,
      ...SERVICE_ENV,
    });
    try {
      const api = apiClient(service.baseUrl);
      const insurer = newInsurer();
      const subscription = await subscribe(api, insurer, receiver.url('/failing'));
      await eventually(async () => (await readdir(sink)).some((name) => name.endsWith('.checkpoint')));
      // The sink's directory becomes a file: every write to it fails.
      await rm(sink, { recursive: true });
      await writeFile(sink, '');

      const policy = await breachablePolicy(api, insurer);
      const evaluation = await evaluate(api, insurer, policy.policy_id);
      // The payout is decided and recorded: 2,000 of 10,000 USD (breachablePolicy).
      expect([evaluation.payout_count, evaluation.total_payout]).toEqual([1, 2000]);
      const readiness = await eventually(async () => {
        const response = await fetch(`${service.baseUrl}/readyz`);
        return response.status === 503 && ((await response.json()) as { checks: Record<string, { status: string }> });
      });
      expect(readiness.checks.audit_checkpoint_sink).toEqual({ status: 'failing' });
      expect(await (await fetch(`${service.baseUrl}/metrics`)).text()).toMatch(
        /^cropcover_audit_checkpoint_sink_failing 1$/m,
      );
      expect(service.output()).toContain('the audit checkpoint sink refuses checkpoints: EEXIST');
      expect(receiver.received('/failing')).toEqual([]);

      await rm(sink);
      await mkdir(sink);
      const request = await eventually(() => receiver.received('/failing')[0], 30_000);
      expect(verified(subscription.raw_secret, request).data.policy_id).toBe(policy.policy_id);
      await eventually(async () => (await fetch(`${service.baseUrl}/readyz`)).status === 200);
    } finally {
      await service.stop();
    }
  }, 240_000);
});

import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { breachablePolicy, evaluate, newInsurer } from '../support/breachable-policy';
import { repositoryRoot, TEST_JWT_SECRET } from '../support/service-process';
import { serviceUnderTest } from '../support/service-under-test';
import { eventually } from '../support/webhook-receiver';

// An auditor deletes a policy's last event row (issue 32, item 2). The signed tree still holds its leaf:
// `GET /audit/leaves` shows it as missing rather than failing, and both exports say the stream is
// truncated (exit 6) instead of crashing or writing a shorter bundle in silence; the full bundle they
// write verifies as TRUNCATED.

const run = promisify(execFile);
const suite = serviceUnderTest('e2e_audit_deleted_event', { MONITOR_ENABLED: 'false' });
const { api, query } = suite;

const audit = (...args: string[]) =>
  run('npm', ['run', '--silent', 'audit', '--', ...args], {
    cwd: repositoryRoot,
    env: { ...process.env, DATABASE_URL: suite.databaseUrl, AUTH_JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent' },
  });

describe('a policy event deleted from the log', () => {
  it('is shown as a missing leaf and makes both exports exit TRUNCATED', async () => {
    const insurer = newInsurer();
    const policy = await breachablePolicy(api, insurer);
    await evaluate(api, insurer, policy.policy_id);
    const stream = `policy-${policy.policy_id}`;
    const last = (
      await query<{ revision: number }>('select max(stream_revision) as revision from events where stream_id = $1', [
        stream,
      ])
    ).rows[0]!.revision;
    const leafIndex = Number(
      await eventually(
        async () =>
          (
            await query<{ leaf_index: string }>(
              'select leaf_index from audit_leaves where stream_id = $1 and stream_revision = $2',
              [stream, last],
            )
          ).rows[0]?.leaf_index,
      ),
    );
    await eventually(async () => {
      const latest = await api.get('/audit/checkpoints/latest', insurer);
      return latest.status === 200 && latest.body.size > leafIndex;
    });
    const before = await api.get(`/audit/leaves?from=${leafIndex}&count=1`, insurer);
    expect(before.body.leaves).toEqual([expect.objectContaining({ event_missing: false })]);

    await query('delete from events where stream_id = $1 and stream_revision = $2', [stream, last]);

    const after = await api.get(`/audit/leaves?from=${leafIndex}&count=1`, insurer);
    expect(after.status).toBe(200);
    expect(after.body.leaves).toEqual([{ ...before.body.leaves[0], event_missing: true }]);

    const keys = (await api.get('/audit/keys', insurer)).body.keys as { vkey: string }[];
    const directory = await mkdtemp(join(tmpdir(), 'audit-deleted-event-'));
    const truncated = `TRUNCATED: ${stream} revision ${last} is leaf ${leafIndex} of the signed tree`;
    const full = join(directory, 'full.json');
    await expect(audit('export', policy.policy_id, '--full', '--out', full)).rejects.toMatchObject({
      code: 6,
      stderr: expect.stringContaining(truncated),
    });
    await expect(audit('verify', full, '--full', ...keys.flatMap((key) => ['--key', key.vkey]))).rejects.toMatchObject({
      code: 6,
      stdout: expect.stringContaining(truncated),
    });
    await expect(audit('export', policy.policy_id, '--out', join(directory, 'default.json'))).rejects.toMatchObject({
      code: 6,
      stderr: expect.stringContaining(truncated),
    });
  }, 180_000);
});

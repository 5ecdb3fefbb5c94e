import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createAuditIntegrator, directoryCheckpointSink } from '@cropcover/projector';
import {
  openProjectorTestDatabase,
  type PolicyStory,
  type ProjectorTestDatabase,
  policyStory,
} from '@cropcover/projector/testing';
import { settableClock } from '@cropcover/runtime';
import { type AuditBundle, FAILURE_EXIT_CODES, generateSignerKey, parseSignerKey } from '@cropcover/verifiable-log';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The audit CLI as an operator runs it: a real process against a real log.

const run = promisify(execFile);
const cli = (databaseUrl: string, ...args: string[]) =>
  run('node_modules/.bin/tsx', ['service/src/cli/audit.ts', ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
  });

describe('the policy audit CLI', () => {
  let t: ProjectorTestDatabase;
  let story: PolicyStory;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('query_audit_cli');
    story = policyStory({
      policyId: 'audited',
      organizationId: 'org-a',
      perils: ['flood', 'storm'],
      termStart: '2026-04-01',
      termEnd: '2026-04-30',
      issuedAt: '2026-03-28T08:00:00.000Z',
    });
    story.evaluate({ flood: [{ date: '2026-04-02', value: 200, revision: 1 }] }, '2026-04-05T06:00:00.000Z', 'eval-1');
    story.settle(story.state.payouts[0]!.payoutId, '2026-04-06T09:00:00.000Z');
    await t.eventStore.append(story.streamId, story.takeNew(), 'no_stream');
  });
  afterAll(() => t?.close());

  /** Runs the integrator until it has taken every event of the log and signed a checkpoint of them all. */
  const signEveryEvent = async (directory: string) => {
    const signer = parseSignerKey(generateSignerKey('cropcover.test/audit/v1'));
    const integrator = createAuditIntegrator({
      pool: t.pool,
      signer,
      origin: signer.name,
      sink: directoryCheckpointSink(join(directory, 'checkpoints')),
      clock: settableClock(),
      checkpointEveryLeaves: 1,
    });
    while ((await integrator.integrateOnce()) > 0);
    await integrator.publishPending();
    return signer;
  };

  it('prints every event with who did it and the state after it', async () => {
    const { stdout } = await cli(t.url, 'audited');
    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('#'))).toEqual([
      '#0 PolicyIssued at 2026-03-28T08:00:00.000Z by underwriter',
      '#1 TriggerEvaluated at 2026-04-05T06:00:00.000Z by underwriter',
      '#2 TriggerBreached at 2026-04-05T06:00:00.000Z by underwriter',
      '#3 PayoutApproved at 2026-04-05T06:00:00.000Z by underwriter',
      '#4 TriggerEvaluationSkipped at 2026-04-05T06:00:00.000Z by underwriter',
      '#5 PayoutSettled at 2026-04-06T09:00:00.000Z by underwriter',
    ]);
    const states = lines
      .filter((line) => line.startsWith('  state after: '))
      .map((line) => JSON.parse(line.slice('  state after: '.length)));
    expect(states.map((state) => state.status)).toEqual([
      'active',
      'active',
      'active',
      'claimed',
      'claimed',
      'claimed',
    ]);
    expect(states[0]).toMatchObject({ paid: 0, next_monitoring_date: '2026-04-01', payouts: [] });
    expect(states[3]).toMatchObject({
      paid: 3333.33,
      perils: [
        { peril: 'flood', breached: true, deepest_severity: 0.333333, paid: 3333.33, latest_observed_value: 200 },
        { peril: 'storm', breached: false, deepest_severity: 0, paid: 0, latest_observed_value: null },
      ],
      payouts: [{ peril: 'flood', amount: 3333.33, settled_at: null }],
    });
    expect(states[5]).toMatchObject({
      next_monitoring_date: '2026-04-06',
      payouts: [{ settled_at: '2026-04-06T09:00:00.000Z' }],
    });
  });

  it('fails with a message for a policy the log does not have', async () => {
    await expect(cli(t.url, 'missing')).rejects.toMatchObject({ code: 1, stderr: 'no policy missing in the log\n' });
  });

  it('needs a policy id', async () => {
    await expect(cli(t.url)).rejects.toMatchObject({ code: 2 });
  });

  it('exports a full bundle whose leaves show an event left out of it (verify --full)', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cropcover-audit-cli-'));
    const signer = await signEveryEvent(directory);
    const key = ['--key', signer.verifier.vkey];

    const full = join(directory, 'full.json');
    await cli(t.url, 'export', 'audited', '--full', '--out', full);
    const { stdout } = await cli(t.url, 'verify', full, ...key, '--full');
    expect(stdout).toBe(
      'OK: 6 events, each in the tree of 6 signed by cropcover.test/audit/v1; no other event of the stream is in it\n',
    );

    const bundle = JSON.parse(await readFile(full, 'utf8')) as AuditBundle;
    const hidden = join(directory, 'hidden.json');
    await writeFile(hidden, JSON.stringify({ ...bundle, events: bundle.events.slice(0, 5) }));
    await expect(cli(t.url, 'verify', hidden, ...key)).rejects.toMatchObject({
      code: FAILURE_EXIT_CODES.TRUNCATED,
      stdout: expect.stringContaining('TRUNCATED: policy-audited revision 5 is leaf 5 of the signed tree'),
    });

    const partial = join(directory, 'partial.json');
    await cli(t.url, 'export', 'audited', '--out', partial);
    await expect(cli(t.url, 'verify', partial, ...key, '--full')).rejects.toMatchObject({ code: 2 });
  }, 180_000);

  it('exports a stream whose middle event row was deleted, exiting GAP, and the bundle verifies as GAP', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'cropcover-audit-cli-gap-'));
    const gapped = policyStory({
      policyId: 'gapped',
      organizationId: 'org-a',
      perils: ['flood'],
      termStart: '2026-04-01',
      termEnd: '2026-04-30',
      issuedAt: '2026-03-28T08:00:00.000Z',
    });
    gapped.evaluate({ flood: [{ date: '2026-04-02', value: 200, revision: 1 }] }, '2026-04-05T06:00:00.000Z', 'eval-g');
    await t.eventStore.append(gapped.streamId, gapped.takeNew(), 'no_stream');
    const signer = await signEveryEvent(directory);
    await t.pool.query('delete from events where stream_id = $1 and stream_revision = 1', [gapped.streamId]);

    const bundle = join(directory, 'gapped.json');
    const gap = expect.stringMatching(
      /^GAP: policy-gapped revision 1 is leaf \d+ of the signed tree of \d+, but its event is missing from the log\n$/,
    );
    await expect(cli(t.url, 'export', 'gapped', '--out', bundle)).rejects.toMatchObject({
      code: FAILURE_EXIT_CODES.GAP,
      stderr: gap,
    });
    await expect(cli(t.url, 'export', 'gapped', '--full', '--out', bundle)).rejects.toMatchObject({
      code: FAILURE_EXIT_CODES.GAP,
      stderr: gap,
    });
    await expect(cli(t.url, 'verify', bundle, '--key', signer.verifier.vkey, '--full')).rejects.toMatchObject({
      code: FAILURE_EXIT_CODES.GAP,
      stdout: 'GAP: policy-gapped: revision 1 is missing (found 2)\n',
    });
  }, 180_000);
});

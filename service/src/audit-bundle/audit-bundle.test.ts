import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuditIntegrator, directoryCheckpointSink } from '@cropcover/projector';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '@cropcover/projector/testing';
import { type ExportedBundle, exportAuditBundle } from '@cropcover/read-store';
import { settableClock } from '@cropcover/runtime';
import {
  type AuditBundle,
  generateSignerKey,
  parseSignerKey,
  signCheckpoint,
  verifyAuditBundle,
} from '@cropcover/verifiable-log';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditBundleFiles } from './verify-audit-bundle-files';

// The research note's acceptance tests (tamper-evident-log.md §4) on a real log: export, tamper, verify.

const ORIGIN = 'cropcover.test/audit/v1';
const STREAM = 'policy-audited';

describe('the audit bundle, exported from a real log and verified offline', () => {
  let t: ProjectorTestDatabase;
  let sink: string;
  const signer = parseSignerKey(generateSignerKey(ORIGIN));
  const keys = [signer.verifier];
  let clean: ExportedBundle;
  let cleanFull: ExportedBundle;

  const meta = () => ({
    event_id: crypto.randomUUID(),
    occurred_at: '2026-04-01T00:00:00.000Z',
    actor: 'test',
    organization_id: 'org-a',
    correlation_id: crypto.randomUUID(),
    causation_id: null,
    schema_version: 1,
    platform_version: '0.0.0-test',
  });
  const integrate = async () => {
    const integrator = createAuditIntegrator({
      pool: t.pool,
      signer,
      origin: ORIGIN,
      sink: directoryCheckpointSink(sink),
      clock: settableClock(),
      checkpointEveryLeaves: 4,
      batchSize: 4,
    });
    while ((await integrator.integrateOnce()) > 0);
    await integrator.publishPending();
  };
  const exported = async () => (await exportAuditBundle(t.pool, t.db, STREAM))!;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('audit_bundle');
    sink = await mkdtemp(join(tmpdir(), 'cropcover-audit-bundle-'));
    for (let i = 0; i < 8; i++) {
      await t.eventStore.append(
        STREAM,
        [{ type: 'TriggerEvaluated', data: { day: i, amount: `${i}.50` }, metadata: meta() }],
        'any',
      );
      await t.eventStore.append(
        `policy-other-${i % 2}`,
        [{ type: 'TriggerEvaluated', data: { i }, metadata: meta() }],
        'any',
      );
    }
    await integrate();
    clean = await exported();
    cleanFull = (await exportAuditBundle(t.pool, t.db, STREAM, { full: true }))!;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('verifies a clean bundle against the key and every checkpoint the sink holds', async () => {
    expect(clean.bundle.events).toHaveLength(8);
    expect(verifyAuditBundle(clean.bundle, keys)).toMatchObject({ ok: true, events: 8 });
    const path = join(sink, '..', `${crypto.randomUUID()}.json`);
    await writeFile(path, JSON.stringify(clean.bundle));
    expect(
      await verifyAuditBundleFiles({ bundlePath: path, keys: [signer.verifier.vkey], checkpointsDir: sink }),
    ).toMatchObject({
      ok: true,
    });
  });

  it('names the policy and revision of a payload edited in SQL: DATA_MISMATCH', async () => {
    await t.pool.query(
      `update events set stored_data = '{"amount":"9999.50","day":3}' where stream_id = $1 and stream_revision = 3`,
      [STREAM],
    );
    const verdict = verifyAuditBundle((await exported()).bundle, keys);
    expect(verdict).toMatchObject({ ok: false, failure: 'DATA_MISMATCH' });
    expect(!verdict.ok && verdict.detail).toContain(`${STREAM} revision 3`);
  });

  it('catches an edit whose leaf and chain were recomputed against the signed root: ROOT_MISMATCH', async () => {
    // Recompute revision 3's leaf and every later prev and leaf, as an attacker with the database would.
    for (let revision = 3; revision < 8; revision++) {
      await t.pool.query(
        `update events e set prev = p.leaf_hash from events p
         where e.stream_id = $1 and e.stream_revision = $2 and p.stream_id = $1 and p.stream_revision = $2 - 1`,
        [STREAM, revision],
      );
      await t.pool.query(
        `update events set leaf_hash = events_leaf_hash(stream_id, stream_revision, event_id::text, event_type, prev,
           stored_data, stored_metadata)
         where stream_id = $1 and stream_revision = $2`,
        [STREAM, revision],
      );
    }
    const forged = (await exported()).bundle;
    expect(verifyAuditBundle({ ...forged, events: forged.events.slice(0, 3) }, keys)).toMatchObject({ ok: true });
    expect(verifyAuditBundle((await exported()).bundle, keys)).toMatchObject({ ok: false, failure: 'ROOT_MISMATCH' });
  });

  it('refuses a checkpoint signed by another key: BAD_SIGNATURE', () => {
    const other = parseSignerKey(generateSignerKey(ORIGIN));
    expect(verifyAuditBundle(clean.bundle, [other.verifier])).toMatchObject({ ok: false, failure: 'BAD_SIGNATURE' });
  });

  it('tells a deleted revision (GAP) from swapped events (CHAIN_BREAK)', () => {
    const events = clean.bundle.events;
    const gap: AuditBundle = { ...clean.bundle, events: [...events.slice(0, 5), ...events.slice(6)] };
    expect(verifyAuditBundle(gap, keys)).toMatchObject({ ok: false, failure: 'GAP' });
    const swapped: AuditBundle = {
      ...clean.bundle,
      events: events.map((event, i) =>
        i === 4 ? { ...events[5]!, revision: 4 } : i === 5 ? { ...events[4]!, revision: 5 } : event,
      ),
    };
    expect(verifyAuditBundle(swapped, keys)).toMatchObject({ ok: false, failure: 'CHAIN_BREAK' });
  });

  it('finds a log served shorter than a checkpoint the auditor holds: TRUNCATED', () => {
    const truncated: AuditBundle = { ...clean.bundle, events: clean.bundle.events.slice(0, 4) };
    const size = Number(clean.bundle.checkpoint.split('\n')[1]);
    const larger = signCheckpoint({ origin: ORIGIN, size: size + 3, root: new Uint8Array(32) }, [signer]).note;
    expect(verifyAuditBundle(truncated, keys, [larger])).toMatchObject({ ok: false, failure: 'TRUNCATED' });
  });

  it('finds the latest event an exporter hid, among the leaves of the signed tree (full mode): TRUNCATED', async () => {
    const { leaves, ...bundle } = cleanFull.bundle;
    expect(leaves).toHaveLength(Number(bundle.checkpoint.split('\n')[1]));
    expect(verifyAuditBundle(cleanFull.bundle, keys)).toMatchObject({ ok: true, events: 8, complete: true });
    // The API omits the policy's last event: its chain alone still verifies, up to revision 6.
    const hidden = { ...cleanFull.bundle, events: cleanFull.bundle.events.slice(0, 7) };
    expect(verifyAuditBundle({ ...bundle, events: hidden.events }, keys)).toMatchObject({ ok: true, events: 7 });
    const verdict = verifyAuditBundle(hidden, keys);
    expect(verdict).toMatchObject({ ok: false, failure: 'TRUNCATED' });
    expect(!verdict.ok && verdict.detail).toContain(
      `${STREAM} revision 7 is leaf ${cleanFull.bundle.events[7]!.leaf_index} of the signed tree`,
    );
    // Leaves that do not rebuild the signed root prove nothing: one left out, or one altered.
    expect(verifyAuditBundle({ ...hidden, leaves: leaves!.slice(0, -1) }, keys)).toMatchObject({
      ok: false,
      failure: 'ROOT_MISMATCH',
    });
    const altered = leaves!.map((input) =>
      input.replace(`"rev":7,"stream":"${STREAM}"`, `"rev":6,"stream":"${STREAM}"`),
    );
    expect(altered).not.toEqual(leaves);
    expect(verifyAuditBundle({ ...hidden, leaves: altered }, keys)).toMatchObject({
      ok: false,
      failure: 'ROOT_MISMATCH',
    });
    // And from files, as `npm run audit -- verify --full` reads them.
    const path = join(sink, '..', `${crypto.randomUUID()}.json`);
    await writeFile(path, JSON.stringify(hidden));
    expect(await verifyAuditBundleFiles({ bundlePath: path, keys: [signer.verifier.vkey] })).toMatchObject({
      ok: false,
      failure: 'TRUNCATED',
    });
  });

  it('shows two signed, inconsistent checkpoints as a FORK, with both as evidence', () => {
    const size = Number(clean.bundle.checkpoint.split('\n')[1]);
    const otherBranch = signCheckpoint({ origin: ORIGIN, size, root: new Uint8Array(32).fill(9) }, [signer]).note;
    const verdict = verifyAuditBundle(clean.bundle, keys, [otherBranch]);
    expect(verdict).toMatchObject({ ok: false, failure: 'FORK', evidence: [otherBranch, clean.bundle.checkpoint] });
    const earlier = signCheckpoint({ origin: ORIGIN, size: 4, root: new Uint8Array(32).fill(9) }, [signer]).note;
    expect(verifyAuditBundle(clean.bundle, keys, [earlier])).toMatchObject({ ok: false, failure: 'FORK' });
  });
});

import { mkdtemp } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStoredEvents, readStoredEventsAt } from '@cropcover/eventstore';
import { createAuditIntegrator, directoryCheckpointSink } from '@cropcover/projector';
import {
  openProjectorTestDatabase,
  type PolicyStory,
  type ProjectorTestDatabase,
  policyStory,
} from '@cropcover/projector/testing';
import { createReadModelConsistency, type ReadModelConsistency } from '@cropcover/read-store';
import {
  createHttpApp,
  createLogger,
  createMetrics,
  finalizeHttpApp,
  loadConfig,
  type SettableClock,
  settableClock,
  signDevToken,
} from '@cropcover/runtime';
import {
  eventLeafHash,
  generateSignerKey,
  leafHash,
  MemoryTree,
  type NoteSigner,
  openCheckpoint,
  parseSignerKey,
  parseVerifierKey,
  verifyInclusion,
} from '@cropcover/verifiable-log';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryRouter } from '../query-router';

// SPEC §7 Audit over real HTTP: a policy's events with their proofs, the verifying keys and their
// rotation, checkpoints by size and the leaves' preimages, on the tree the real integrator built.

const SECRET = 'audit-reads-test-secret-of-at-least-32-characters';
const ORIGIN = 'cropcover.test/audit/v1';
const auditor = { sub: 'auditor-a', org: 'org-a', roles: ['auditor'] };
const otherAuditor = { sub: 'auditor-b', org: 'org-b', roles: ['auditor'] };
const farmer = { sub: 'farmer-a', roles: ['farmer'] };
const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

describe('the audit reads', () => {
  let t: ProjectorTestDatabase;
  let server: Server;
  let consistency: ReadModelConsistency;
  let baseUrl: string;
  let story: PolicyStory;
  const clock: SettableClock = settableClock('2026-04-10T00:00:00.000Z');
  const firstKey = parseSignerKey(generateSignerKey(ORIGIN));
  const rotatedKey = parseSignerKey(generateSignerKey(ORIGIN));

  const get = async (path: string, caller: object = auditor) => {
    const token = await signDevToken(caller as never, SECRET);
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as any };
  };

  const integrate = async (signer: NoteSigner) => {
    const integrator = createAuditIntegrator({
      pool: t.pool,
      signer,
      origin: ORIGIN,
      sink: directoryCheckpointSink(await mkdtemp(join(tmpdir(), 'cropcover-audit-reads-'))),
      clock,
    });
    while ((await integrator.integrateOnce()) > 0);
  };

  const counts = async () => {
    const { rows } = await t.pool.query(
      `select (select count(*) from events) as events, (select count(*) from audit_leaves) as leaves,
        (select count(*) from audit_checkpoints) as checkpoints, (select count(*) from audit_signing_keys) as keys`,
    );
    return rows[0];
  };

  beforeAll(async () => {
    t = await openProjectorTestDatabase('query_audit_reads');
    const app = createHttpApp({
      config: loadConfig({ AUTH_JWT_SECRET: SECRET }),
      logger: createLogger({ level: 'silent' }),
      metrics: createMetrics(),
      readiness: [],
      openApiDocument: {},
      asyncApiDocument: {},
      clock,
    });
    consistency = createReadModelConsistency({ pool: t.pool, projectionNames: [], logger: t.logger });
    const storedLog = {
      readStoredEvents: (stream: string) => readStoredEvents(t.pool, stream),
      readStoredEventsAt: (places: readonly { stream: string; revision: number }[]) =>
        readStoredEventsAt(t.pool, places),
    };
    app.use(
      createQueryRouter({
        db: t.db,
        consistency,
        readYourWritesTimeoutMs: 1000,
        eventStore: t.eventStore,
        clock,
        storedLog,
      }),
    );
    finalizeHttpApp(app);
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    story = policyStory({
      policyId: 'p-audited',
      organizationId: 'org-a',
      perils: ['flood'],
      termStart: '2026-04-01',
      termEnd: '2026-04-30',
      issuedAt: '2026-03-28T08:00:00.000Z',
    });
    story.evaluate({ flood: [{ date: '2026-04-02', value: 200, revision: 1 }] }, '2026-04-05T06:00:00.000Z');
    const other = policyStory({
      policyId: 'p-other',
      organizationId: 'org-b',
      perils: ['flood'],
      termStart: '2026-04-01',
      termEnd: '2026-04-30',
      issuedAt: '2026-03-29T08:00:00.000Z',
    });
    await t.eventStore.append(story.streamId, story.takeNew(), 'no_stream');
    await t.eventStore.append(other.streamId, other.takeNew(), 'no_stream');
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await consistency?.close();
    await t?.close();
  });

  it('shows the stored bytes and leaves but no proofs before the first checkpoint', async () => {
    const { status, body } = await get('/insurance/policies/p-audited/events?proofs=true');
    expect(status).toBe(200);
    expect(body.checkpoint).toBeNull();
    expect(body.items.map((item: any) => [item.leaf_index, item.proof])).toEqual(body.items.map(() => [null, null]));
    expect(body.items.every((item: any) => typeof item.stored.data === 'string')).toBe(true);
    expect((await get('/audit/keys')).body).toEqual({ keys: [] });
  });

  it("proves each of the policy's events in the newest signed checkpoint, from the stored bytes alone", async () => {
    await integrate(firstKey);
    // One more event after the checkpoint: shown, not yet proven.
    story.settle(story.state.payouts[0]!.payoutId, '2026-04-06T09:00:00.000Z');
    await t.eventStore.append(story.streamId, story.takeNew(), story.events.length - 2);

    const { status, body } = await get('/insurance/policies/p-audited/events?proofs=true');
    expect(status).toBe(200);
    const checkpoint = openCheckpoint(body.checkpoint.note, [firstKey.verifier]);
    expect([body.checkpoint.origin, body.checkpoint.size]).toEqual([ORIGIN, checkpoint.size]);
    expect(body.items).toHaveLength(story.events.length);
    const [latest, ...proven] = [...body.items].reverse();
    expect([latest.leaf_index, latest.proof]).toEqual([null, null]);
    let prev: Uint8Array = new Uint8Array(32);
    for (const item of proven.reverse()) {
      expect(JSON.parse(item.stored.data)).toEqual(item.data);
      expect(bytes(item.prev)).toEqual(prev);
      const leaf = eventLeafHash({
        stream: story.streamId,
        revision: item.revision,
        eventId: item.metadata.event_id,
        type: item.type,
        data: item.stored.data,
        metadata: item.stored.metadata,
        prev: bytes(item.prev),
      });
      expect(Buffer.from(leaf).toString('base64')).toBe(item.leaf_hash);
      expect(item.proof).toMatchObject({ leaf_index: item.leaf_index, tree_size: checkpoint.size });
      expect(
        verifyInclusion(item.leaf_index, checkpoint.size, leaf, item.proof.hashes.map(bytes), checkpoint.root),
      ).toBe(true);
      prev = leaf;
    }
    // Without the flag, the page is as before.
    const plain = await get('/insurance/policies/p-audited/events');
    expect(Object.keys(plain.body).sort()).toEqual(['items', 'page', 'page_size', 'policy_id', 'total']);
    expect(Object.keys(plain.body.items[0]).sort()).toEqual(['data', 'metadata', 'occurred_at', 'revision', 'type']);
  });

  it('publishes every key that signed, the replaced one with the end of its validity', async () => {
    const before = await get('/audit/keys');
    expect(before.body.keys).toEqual([
      {
        name: ORIGIN,
        key_id: firstKey.verifier.vkey.split('+')[1],
        algorithm: 'ed25519',
        vkey: firstKey.verifier.vkey,
        valid_from: '2026-04-10T00:00:00.000Z',
      },
    ]);
    clock.advance(5_000);
    await integrate(rotatedKey);
    const { status, body } = await get('/audit/keys');
    expect(status).toBe(200);
    expect(body.keys.map((key: any) => [key.vkey, key.valid_from, key.valid_to])).toEqual([
      [firstKey.verifier.vkey, '2026-04-10T00:00:00.000Z', '2026-04-10T00:00:05.000Z'],
      [rotatedKey.verifier.vkey, '2026-04-10T00:00:05.000Z', undefined],
    ]);
    for (const key of body.keys) expect(parseVerifierKey(key.vkey).vkey).toBe(key.vkey);
    const latest = await get('/audit/checkpoints/latest');
    expect(() => openCheckpoint(latest.body.note, [parseVerifierKey(body.keys[1].vkey)])).not.toThrow();
  });

  it('serves each checkpoint by its size, and the leaves whose preimages rebuild its root', async () => {
    const latest = (await get('/audit/checkpoints/latest')).body;
    const { rows } = await t.pool.query<{ tree_size: string }>('select tree_size from audit_checkpoints order by 1');
    expect(rows).toHaveLength(2);
    const first = await get(`/audit/checkpoints/${rows[0]!.tree_size}`);
    expect(first.status).toBe(200);
    expect(openCheckpoint(first.body.note, [firstKey.verifier]).size).toBe(Number(rows[0]!.tree_size));
    expect((await get(`/audit/checkpoints/${latest.size}`)).body).toEqual(latest);

    const { status, body } = await get(`/audit/leaves?from=0&count=${latest.size}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ from: 0, count: latest.size });
    const hashes = body.leaves.map((leaf: any, i: number) => {
      expect(leaf.leaf_index).toBe(i);
      expect(Buffer.from(leafHash(new Uint8Array(Buffer.from(leaf.input, 'utf8')))).toString('base64')).toBe(
        leaf.leaf_hash,
      );
      return bytes(leaf.leaf_hash);
    });
    expect(Buffer.from(new MemoryTree(hashes).root()).toString('base64')).toBe(latest.root);
    // Every revision of the audited policy is among the leaves: none can be hidden from the auditor.
    const revisions = body.leaves
      .map((leaf: any) => JSON.parse(leaf.input))
      .filter((envelope: any) => envelope.stream === story.streamId)
      .map((envelope: any) => envelope.rev);
    expect(revisions).toEqual(story.events.map((_, revision) => revision));
    const tail = await get(`/audit/leaves?from=${latest.size - 1}&count=1`);
    expect(tail.body.leaves).toEqual([body.leaves.at(-1)]);
  });

  it('refuses bad input with a problem and changes nothing', async () => {
    const before = await counts();
    const { size } = (await get('/audit/checkpoints/latest')).body;
    for (const [path, status, code] of [
      ['/insurance/policies/p-audited/events?proofs=yes', 400, 'validation_failed'],
      ['/insurance/policies/p-audited/events?proofs=true&extra=1', 400, 'validation_failed'],
      ['/insurance/policies/p-other/events?proofs=true', 404, 'not_found'],
      ['/audit/checkpoints/0', 400, 'validation_failed'],
      ['/audit/checkpoints/abc', 400, 'validation_failed'],
      [`/audit/checkpoints/${size + 1}`, 404, 'no_checkpoint'],
      ['/audit/leaves?from=0', 400, 'validation_failed'],
      ['/audit/leaves?from=0&count=0', 400, 'validation_failed'],
      ['/audit/leaves?from=0&count=1001', 400, 'validation_failed'],
      ['/audit/leaves?from=-1&count=1', 400, 'validation_failed'],
      [`/audit/leaves?from=${size - 1}&count=2`, 422, 'beyond_tree'],
      [`/audit/leaves?from=${size}&count=1`, 422, 'beyond_tree'],
    ] as const) {
      const { status: answered, body } = await get(path);
      expect([path, answered, body.code]).toEqual([path, status, code]);
    }
    expect((await get('/audit/keys', farmer)).status).toBe(403);
    expect((await get('/audit/leaves?from=0&count=1', farmer)).status).toBe(403);
    expect((await get('/insurance/policies/p-audited/events?proofs=true', otherAuditor)).status).toBe(404);
    expect(await counts()).toEqual(before);
  });
});

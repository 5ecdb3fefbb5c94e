import { mkdtemp } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLeavesInCommitOrder } from '@cropcover/eventstore';
import { createAuditIntegrator, directoryCheckpointSink } from '@cropcover/projector';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '@cropcover/projector/testing';
import { createReadModelConsistency, type ReadModelConsistency } from '@cropcover/read-store';
import {
  createHttpApp,
  createLogger,
  createMetrics,
  finalizeHttpApp,
  loadConfig,
  settableClock,
  signDevToken,
} from '@cropcover/runtime';
import {
  generateSignerKey,
  MemoryTree,
  openCheckpoint,
  parseSignerKey,
  verifyConsistency,
  verifyInclusion,
} from '@cropcover/verifiable-log';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryRouter } from '../query-router';

// The verifiable log's API over real HTTP, on the tree the real integrator built from a real log.

const SECRET = 'audit-proofs-test-secret-of-at-least-32-characters';
const ORIGIN = 'cropcover.test/audit/v1';
const auditor = { sub: 'auditor-a', org: 'org-a', roles: ['auditor'] };
const farmer = { sub: 'farmer-a', roles: ['farmer'] };
const fromBase64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

describe('the audit proofs API', () => {
  let t: ProjectorTestDatabase;
  let server: Server;
  let consistency: ReadModelConsistency;
  let baseUrl: string;
  const signer = parseSignerKey(generateSignerKey(ORIGIN));
  let reference: MemoryTree;

  const get = async (path: string, caller: object = auditor) => {
    const token = await signDevToken(caller as never, SECRET);
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as any };
  };

  const integrate = async () => {
    const integrator = createAuditIntegrator({
      pool: t.pool,
      signer,
      origin: ORIGIN,
      sink: directoryCheckpointSink(await mkdtemp(join(tmpdir(), 'cropcover-audit-api-'))),
      clock: settableClock(),
    });
    while ((await integrator.integrateOnce()) > 0);
  };

  beforeAll(async () => {
    t = await openProjectorTestDatabase('query_audit_proofs');
    const clock = settableClock('2026-04-01T00:00:00.000Z');
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
    app.use(
      createQueryRouter({ db: t.db, consistency, readYourWritesTimeoutMs: 1000, eventStore: t.eventStore, clock }),
    );
    finalizeHttpApp(app);
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await consistency?.close();
    await t?.close();
  });

  it('answers 404 no_checkpoint before the first checkpoint', async () => {
    const { status, body } = await get('/audit/checkpoints/latest');
    expect([status, body.code]).toEqual([404, 'no_checkpoint']);
  });

  it('serves the latest signed checkpoint, which the key opens', async () => {
    for (let i = 0; i < 11; i++)
      await t.eventStore.append(`policy-${i % 3}`, [{ type: 'Evaluated', data: { i }, metadata: meta() }], 'any');
    await integrate();
    reference = new MemoryTree((await readLeavesInCommitOrder(t.pool, 'start', 100)).map((leaf) => leaf.leafHash));
    const { status, body } = await get('/audit/checkpoints/latest');
    expect(status).toBe(200);
    const opened = openCheckpoint(body.note, [signer.verifier]);
    expect([body.origin, body.size, body.root]).toEqual([ORIGIN, 11, Buffer.from(reference.root()).toString('base64')]);
    expect(opened.size).toBe(11);
  });

  it('serves inclusion proofs that verify against the root of their size', async () => {
    for (const [index, size] of [
      [0, 1],
      [4, 11],
      [10, 11],
      [6, 8],
    ] as const) {
      const { status, body } = await get(`/audit/proofs/inclusion?index=${index}&size=${size}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ leaf_index: index, tree_size: size });
      const leafHash = (await readLeavesInCommitOrder(t.pool, 'start', 100))[index]!.leafHash;
      expect(verifyInclusion(index, size, leafHash, body.hashes.map(fromBase64), reference.root(size))).toBe(true);
    }
  });

  it('serves consistency proofs that verify between the roots of their sizes', async () => {
    for (const [from, to] of [
      [1, 11],
      [5, 11],
      [8, 11],
      [11, 11],
    ] as const) {
      const { status, body } = await get(`/audit/proofs/consistency?from=${from}&to=${to}`);
      expect(status).toBe(200);
      expect(verifyConsistency(from, to, reference.root(from), reference.root(to), body.hashes.map(fromBase64))).toBe(
        true,
      );
    }
  });

  it('refuses leaves and sizes beyond the tree, bad numbers and other roles', async () => {
    for (const path of [
      '/audit/proofs/inclusion?index=11&size=11',
      '/audit/proofs/inclusion?index=0&size=12',
      '/audit/proofs/consistency?from=6&to=5',
      '/audit/proofs/consistency?from=1&to=12',
    ]) {
      const { status, body } = await get(path);
      expect([path, status, body.code]).toEqual([path, 422, 'beyond_tree']);
    }
    expect((await get('/audit/proofs/inclusion?index=-1&size=2')).status).toBe(400);
    expect((await get('/audit/proofs/consistency?from=1')).status).toBe(400);
    expect((await get('/audit/checkpoints/latest', farmer)).status).toBe(403);
  });
});

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

import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLeavesInCommitOrder } from '@cropcover/eventstore';
import { settableClock } from '@cropcover/runtime';
import {
  generateSignerKey,
  inclusionProofRanges,
  MemoryTree,
  openCheckpoint,
  parseSignerKey,
  rangeHash,
  subtreesOf,
  verifyInclusion,
} from '@cropcover/verifiable-log';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projector-test-database';
import { newEvent } from '../testing/registry-events';
import { type AuditIntegratorOptions, createAuditIntegrator } from './audit-integrator';
import { directoryCheckpointSink } from './checkpoint-sink';

const ORIGIN = 'cropcover.test/audit/v1';
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('the audit integrator', () => {
  let test: ProjectorTestDatabase;
  let sinkDirectory: string;
  const signer = parseSignerKey(generateSignerKey(ORIGIN));
  const clock = settableClock('2026-05-01T00:00:00Z');
  let options: AuditIntegratorOptions;

  beforeAll(async () => {
    test = await openProjectorTestDatabase('audit_integrator');
    sinkDirectory = await mkdtemp(join(tmpdir(), 'cropcover-checkpoints-'));
    options = {
      pool: test.pool,
      signer,
      origin: ORIGIN,
      sink: directoryCheckpointSink(sinkDirectory),
      clock,
      checkpointEveryLeaves: 5,
      checkpointEveryMs: 60_000,
      batchSize: 3,
    };
  });

  afterAll(async () => {
    await test?.close();
  });

  const append = (stream: string, count: number) =>
    test.eventStore.append(
      stream,
      Array.from({ length: count }, (_, i) => newEvent('Evaluated', { i })),
      'any',
    );

  /** The tree the log's leaves make, read whole in commit order. */
  const referenceTree = async () =>
    new MemoryTree((await readLeavesInCommitOrder(test.pool, 'start', 100_000)).map((leaf) => leaf.leafHash));

  const integrateAll = async (integrator = createAuditIntegrator(options)) => {
    while ((await integrator.integrateOnce()) > 0);
    await integrator.publishPending();
  };

  const storedNode = async (level: number, index: number) => {
    const { rows } = await test.pool.query<{ hash: Buffer }>(
      'select hash from audit_tree where level = $1 and node_index = $2',
      [level, index],
    );
    return new Uint8Array(rows[0]!.hash);
  };

  it('builds the RFC 6962 tree over the log in batches, keeping every subtree a proof needs', async () => {
    await append('policy-a', 4);
    await append('policy-b', 3);
    await append('policy-a', 2);
    await integrateAll();
    const reference = await referenceTree();
    expect(reference.size).toBe(9);
    const root = rangeHash(await Promise.all(subtreesOf(0, 9).map(({ level, index }) => storedNode(level, index))));
    expect(hex(root)).toBe(hex(reference.root()));
    for (let index = 0; index < 9; index++) {
      const proof = await Promise.all(
        inclusionProofRanges(index, 9).map(async ({ start, end }) =>
          rangeHash(await Promise.all(subtreesOf(start, end).map(({ level, index: at }) => storedNode(level, at)))),
        ),
      );
      expect(verifyInclusion(index, 9, await storedNode(0, index), proof, reference.root())).toBe(true);
    }
  });

  it('signs checkpoints every so many leaves and publishes them to the sink, which its key opens', async () => {
    const { rows } = await test.pool.query<{ tree_size: string; note: string; published_at: Date | null }>(
      'select tree_size, note, published_at from audit_checkpoints order by tree_size',
    );
    // Batches of 3: a checkpoint at 3 (the first), then at 9 (≥ 5 leaves later).
    expect(rows.map((row) => Number(row.tree_size))).toEqual([3, 9]);
    expect(rows.every((row) => row.published_at !== null)).toBe(true);
    const reference = await referenceTree();
    for (const row of rows) {
      const opened = openCheckpoint(await readFile(join(sinkDirectory, `${row.tree_size}.checkpoint`), 'utf8'), [
        signer.verifier,
      ]);
      expect([opened.origin, opened.size, hex(opened.root)]).toEqual([
        ORIGIN,
        Number(row.tree_size),
        hex(reference.root(opened.size)),
      ]);
    }
  });

  it('signs after the interval even when few leaves came', async () => {
    await append('policy-c', 1);
    await integrateAll();
    expect((await readdir(sinkDirectory)).sort()).toEqual(['3.checkpoint', '9.checkpoint']);
    clock.advance(60_000);
    await integrateAll();
    expect((await readdir(sinkDirectory)).sort()).toEqual(['10.checkpoint', '3.checkpoint', '9.checkpoint']);
  });

  it('never passes a late commit: an append that began earlier is integrated before later ones', async () => {
    const slow = new pg.Client({ connectionString: test.url });
    await slow.connect();
    try {
      await slow.query('begin');
      // The appending lock taken and a transaction id drawn, then held open: an append that commits late.
      await slow.query(
        `insert into events (stream_id, stream_revision, event_id, event_type, data, metadata)
         values ('policy-slow', 0, gen_random_uuid(), 'Evaluated', '{}', '{}')`,
      );
      await append('policy-fast', 2);
      await integrateAll();
      expect((await test.pool.query('select count(*)::int as n from audit_leaves')).rows[0].n).toBe(10);
      await slow.query('commit');
      await integrateAll();
      const { rows } = await test.pool.query<{ stream_id: string }>(
        'select stream_id from audit_leaves where leaf_index >= 10 order by leaf_index',
      );
      expect(rows.map((row) => row.stream_id)).toEqual(['policy-slow', 'policy-fast', 'policy-fast']);
      const leaves = await readLeavesInCommitOrder(test.pool, 'start', 100);
      expect(hex(await storedNode(0, 10))).toBe(hex(leaves[10]!.leafHash));
    } finally {
      await slow.end();
    }
  });

  it('gives the same tree when two integrators run at once', async () => {
    await append('policy-d', 7);
    await Promise.all([integrateAll(), integrateAll(createAuditIntegrator({ ...options, batchSize: 2 }))]);
    const reference = await referenceTree();
    const { rows } = await test.pool.query('select count(*)::int as n from audit_leaves');
    expect(rows[0].n).toBe(reference.size);
    const root = rangeHash(
      await Promise.all(subtreesOf(0, reference.size).map(({ level, index }) => storedNode(level, index))),
    );
    expect(hex(root)).toBe(hex(reference.root()));
  });
});

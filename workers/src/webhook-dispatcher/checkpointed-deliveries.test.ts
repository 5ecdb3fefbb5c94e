import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TriggerBreached } from '@cropcover/contracts';
import { triggerBreachedDelivery } from '@cropcover/domain';
import { readStoredEvents } from '@cropcover/eventstore';
import { createAuditIntegrator, directoryCheckpointSink } from '@cropcover/projector';
import { openProjectorTestDatabase, type ProjectorTestDatabase, policyStory } from '@cropcover/projector/testing';
import { type ListenToCheckpointPublications, listenToCheckpointPublications } from '@cropcover/read-store';
import { createLogger, settableClock } from '@cropcover/runtime';
import { generateSignerKey, openCheckpoint, parseSignerKey, verifyInclusion } from '@cropcover/verifiable-log';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditGate, type LoggedBreach, recordBreachDeliveries } from './breach-deliveries';
import { releaseCheckpointedDeliveries, startCheckpointedRelease } from './checkpointed-deliveries';
import { claimDueDeliveries } from './delivery-attempt';

// SPEC §7 Audit, the payout gate: a trigger.breached delivery is not sent before a checkpoint that reached
// the sink covers its breach, and then carries the breach's inclusion proof and that checkpoint.

const NOW = new Date('2026-04-05T06:00:01.000Z');
const ORIGIN = 'cropcover.test/audit/v1';
const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

describe('a breach delivery behind the audit gate', () => {
  let t: ProjectorTestDatabase;
  const signer = parseSignerKey(generateSignerKey(ORIGIN));

  beforeAll(async () => {
    t = await openProjectorTestDatabase('checkpointed_deliveries');
    await t.db
      .insertInto('webhook_targets')
      .values({
        webhook_id: 'wh-1',
        organization_id: 'org-a',
        url: 'https://receiver.example/hook',
        is_active: true,
        created_commit_position: '0',
        created_prepare_position: '0',
      })
      .execute();
    await t.db
      .insertInto('webhook_secrets')
      .values({ webhook_id: 'wh-1', secret: 'whsec_c2VjcmV0', created_at: NOW })
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A policy that breached, appended to the log, and its breach as the dispatcher reads it. */
  const breachInLog = async (policyId: string): Promise<LoggedBreach & { stream: string; revision: number }> => {
    const story = policyStory({
      policyId,
      organizationId: 'org-a',
      perils: ['flood'],
      termStart: '2026-04-01',
      termEnd: '2026-04-30',
      issuedAt: '2026-03-28T08:00:00.000Z',
    });
    story.evaluate({ flood: [{ date: '2026-04-02', value: 200, revision: 1 }] }, '2026-04-05T06:00:00.000Z');
    await t.eventStore.append(story.streamId, story.takeNew(), 'no_stream');
    const recorded = (await t.eventStore.readStream(story.streamId)).find((event) => event.type === 'TriggerBreached')!;
    return {
      eventId: recorded.metadata.event_id,
      position: recorded.position,
      organizationId: 'org-a',
      breach: TriggerBreached.parse(recorded.data),
      trace: {},
      stream: story.streamId,
      revision: recorded.revision,
    };
  };

  // One integrator for the file, its clock moved past the checkpoint interval before each new checkpoint.
  const clock = settableClock(NOW);
  let sinkDirectory: string;
  const integrator = () =>
    createAuditIntegrator({
      pool: t.pool,
      signer,
      origin: ORIGIN,
      sink: directoryCheckpointSink(sinkDirectory),
      clock,
    });
  beforeAll(async () => {
    sinkDirectory = await mkdtemp(join(tmpdir(), 'cropcover-gate-'));
  });

  const claim = () => claimDueDeliveries(t.db, NOW, crypto.randomUUID(), { count: 10, perEndpoint: 10 });
  const gateOn: AuditGate = { awaitCheckpoint: true };

  it('is due at once, without proof, where the audit log is off', async () => {
    const breach = await breachInLog('p-ungated');
    expect(await recordBreachDeliveries(t.db, [breach], NOW, { awaitCheckpoint: false })).toBe(1);
    const [claimed] = await claim();
    expect(JSON.parse(claimed!.payload)).toEqual(triggerBreachedDelivery(breach.eventId, 'org-a', breach.breach));
    await t.db.updateTable('webhook_deliveries').set({ status: 'delivered', next_attempt_at: null }).execute();
  });

  it('waits for a published checkpoint covering the breach, then carries its inclusion proof', async () => {
    const breach = await breachInLog('p-gated');
    expect(await recordBreachDeliveries(t.db, [breach], NOW, gateOn)).toBe(1);
    expect(await claim()).toEqual([]);
    expect(await releaseCheckpointedDeliveries(t.db)).toBe(0);

    const gate = integrator();
    while ((await gate.integrateOnce()) > 0);
    // Signed, but not yet in the sink: not held outside the database, so nothing is released.
    expect(await releaseCheckpointedDeliveries(t.db)).toBe(0);
    expect(await claim()).toEqual([]);

    await gate.publishPending();
    expect(await releaseCheckpointedDeliveries(t.db)).toBe(1);
    const [claimed, ...others] = await claim();
    expect(others).toEqual([]);
    const { data, ...rest } = JSON.parse(claimed!.payload);
    const { audit, ...breachData } = data;
    const expected = triggerBreachedDelivery(breach.eventId, 'org-a', breach.breach);
    expect({ ...rest, data: breachData }).toEqual(expected);

    const checkpoint = openCheckpoint(audit.checkpoint.note, [signer.verifier]);
    expect(audit).toMatchObject({ tree_size: checkpoint.size, checkpoint: { origin: ORIGIN, size: checkpoint.size } });
    const [stored] = await readStoredEvents(t.pool, breach.stream, breach.revision, 1);
    expect(stored!.eventId).toBe(breach.eventId);
    expect(
      verifyInclusion(audit.leaf_index, audit.tree_size, stored!.leafHash, audit.hashes.map(bytes), checkpoint.root),
    ).toBe(true);

    // Released once: the body every retry sends stays the same.
    expect(await releaseCheckpointedDeliveries(t.db)).toBe(0);
    const { payload } = await t.db
      .selectFrom('webhook_deliveries')
      .select('payload')
      .where('event_id', '=', breach.eventId)
      .executeTakeFirstOrThrow();
    expect(payload).toBe(claimed!.payload);
  });

  /** The gate running with polls too slow to matter, and what it released, as it tells. */
  const runningGate = (hear: ListenToCheckpointPublications, deafPollMs = 600_000) => {
    let released!: () => void;
    const releasedOnce = new Promise<void>((resolve) => {
      released = resolve;
    });
    const gate = startCheckpointedRelease({
      db: t.db,
      hear,
      onReleased: released,
      logger: createLogger({ level: 'silent' }),
      hearingPollMs: 600_000,
      deafPollMs,
    });
    return { releasedOnce, stop: gate.stop };
  };

  /** A breach recorded behind the gate and a checkpoint covering it signed, not yet published. */
  const signedBreach = async (policyId: string) => {
    const breach = await breachInLog(policyId);
    expect(await recordBreachDeliveries(t.db, [breach], NOW, gateOn)).toBe(1);
    clock.advance(60_000);
    const signing = integrator();
    while ((await signing.integrateOnce()) > 0);
    return signing;
  };

  it('is released as soon as the covering checkpoint is published, not at the next poll', async () => {
    let heard!: () => void;
    const hearing = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const publications = listenToCheckpointPublications(t.pool, createLogger({ level: 'silent' }));
    const gate = runningGate((watcher) =>
      publications({
        ...watcher,
        onListening: (now) => {
          watcher.onListening(now);
          if (now) heard();
        },
      }),
    );
    try {
      await hearing;
      const signing = await signedBreach('p-heard');
      await signing.publishPending();
      await gate.releasedOnce;
      expect(await claim()).toHaveLength(1);
    } finally {
      await gate.stop();
    }
  });

  it('is released by the poll while publications cannot be heard', async () => {
    const deaf: ListenToCheckpointPublications = () => ({ close: async () => undefined });
    const gate = runningGate(deaf, 20);
    try {
      const signing = await signedBreach('p-deaf');
      await signing.publishPending();
      await gate.releasedOnce;
      expect(await claim()).toHaveLength(1);
    } finally {
      await gate.stop();
    }
  });
});

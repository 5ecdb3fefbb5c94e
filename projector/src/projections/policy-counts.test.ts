import { randomUUID } from 'node:crypto';
import type { Peril } from '@cropcover/contracts';
import { closePolicy } from '@cropcover/domain';
import type { ExpectedRevision, NewEvent, RecordedEvent } from '@cropcover/eventstore';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyBatch } from '../projection-batch';
import { type PolicyStory, policyStory } from '../testing/policy-story';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projector-test-database';
import { readWholeLog } from '../testing/visible-log';
import { policiesProjection } from './policies-projection';

// policy_counts is maintained by deltas, so it is only right if every batch shape (whole log, one event at
// a time, replays, retries after a rollback, perils given in any order) moves each policy between count
// keys exactly once. These tests compare it with a GROUP BY over the policies rows after each shape.

const FLOOD_RAIN = { flood: [{ date: '2026-04-02', value: 200, revision: 1 }] };

/** A PolicyClosed as the monitor would record it (the story has no closing of its own). */
const expired = (story: PolicyStory, at: string): NewEvent[] =>
  closePolicy({ now: new Date(at) }, story.state).map((event) => ({
    type: event.type,
    data: event.data,
    metadata: { ...story.events[0]!.metadata, event_id: randomUUID(), occurred_at: at },
  }));

describe('policy counts', () => {
  let t: ProjectorTestDatabase;
  let log: RecordedEvent[];

  beforeAll(async () => {
    t = await openProjectorTestDatabase('projector_policy_counts');
    const start = (policyId: string, perils: Peril[], organizationId = 'demo-insurer') =>
      policyStory({
        policyId,
        organizationId,
        perils,
        termStart: '2026-04-01',
        termEnd: '2026-04-30',
        issuedAt: '2026-03-28T08:00:00.000Z',
      });
    const appended: NewEvent[][] = [];
    const append = async (story: PolicyStory, expected: ExpectedRevision = 'no_stream') => {
      const fresh = story.takeNew();
      appended.push(fresh);
      await t.eventStore.append(story.streamId, fresh, expected);
    };

    // Issued and claimed (active -> claimed) in one append: one batch holds both.
    const claimed = start('p-claimed', ['flood', 'storm']);
    claimed.evaluate(FLOOD_RAIN, '2026-04-05T06:00:00.000Z');
    await append(claimed);
    // The same perils in the other order, claimed in a later append, then settled.
    const reversed = start('p-reversed', ['storm', 'flood']);
    await append(reversed);
    const lapsed = start('p-lapsed', ['storm', 'flood']);
    await append(lapsed);
    reversed.evaluate(FLOOD_RAIN, '2026-04-05T06:00:00.000Z');
    await t.eventStore.append(reversed.streamId, reversed.takeNew(), 'any');
    reversed.settle(reversed.state.payouts[0]!.payoutId, '2026-04-06T09:00:00.000Z');
    await t.eventStore.append(reversed.streamId, reversed.takeNew(), 'any');
    lapsed.lapse('premium not paid', '2026-04-03T10:00:00.000Z');
    await t.eventStore.append(lapsed.streamId, lapsed.takeNew(), 'any');
    // Issued then expired after the settlement period, with an evaluation that paid nothing in between.
    const expiring = start('p-expired', ['flood', 'storm']);
    expiring.evaluate({ flood: [{ date: '2026-04-02', value: 10, revision: 1 }] }, '2026-04-05T06:00:00.000Z');
    await append(expiring);
    await t.eventStore.append(expiring.streamId, expired(expiring, '2026-07-01T00:00:00.000Z'), 'any');
    // One that stays active, and one of another organization.
    await append(start('p-active', ['storm', 'flood']));
    await append(start('p-other', ['drought'], 'org-b'));
    const total = [claimed, reversed, lapsed, expiring].reduce((sum, story) => sum + story.events.length, 0) + 1 + 2;
    log = await readWholeLog(t.eventStore, total);
  });
  afterAll(() => t?.close());

  const empty = () => sql`truncate policies, policy_counts, policy_evaluations, policy_payouts`.execute(t.db);
  const counts = async () =>
    (
      await sql<{ organization_id: string; status: string; perils: string[]; policies: string }>`
        select organization_id, status, perils, policies::text as policies from policy_counts
        where policies <> 0 order by organization_id, status, perils`.execute(t.db)
    ).rows;
  const grouped = async () =>
    (
      await sql<{ organization_id: string; status: string; perils: string[]; policies: string }>`
        select organization_id, status, (select array_agg(p order by p) from unnest(perils) p) as perils,
               count(*)::text as policies
        from policies group by 1, 2, 3 order by 1, 2, 3`.execute(t.db)
    ).rows;
  const expectConsistent = async () => {
    expect(await counts()).toEqual(await grouped());
  };
  const applyIn = async (batches: readonly (readonly RecordedEvent[])[]) => {
    for (const batch of batches) await applyBatch(t.db, policiesProjection, batch);
  };
  const chunks = (events: readonly RecordedEvent[], size: number) =>
    Array.from({ length: Math.ceil(events.length / size) }, (_, i) => events.slice(i * size, (i + 1) * size));

  it('counts every policy once under its final status, whatever the batch size', async () => {
    for (const size of [log.length, 1, 2, 3, 5]) {
      await empty();
      await applyIn(chunks(log, size));
      await expectConsistent();
      expect(await counts()).toEqual([
        { organization_id: 'demo-insurer', status: 'active', perils: ['flood', 'storm'], policies: '1' },
        { organization_id: 'demo-insurer', status: 'claimed', perils: ['flood', 'storm'], policies: '2' },
        { organization_id: 'demo-insurer', status: 'expired', perils: ['flood', 'storm'], policies: '1' },
        { organization_id: 'demo-insurer', status: 'lapsed', perils: ['flood', 'storm'], policies: '1' },
        { organization_id: 'org-b', status: 'active', perils: ['drought'], policies: '1' },
      ]);
    }
  });

  it('stays consistent after every batch, and when the log is replayed twice from any position', async () => {
    await empty();
    for (const batch of chunks(log, 1)) {
      await applyIn([batch]);
      await expectConsistent();
    }
    const final = await counts();
    for (let from = 0; from < log.length; from += 1) {
      await applyIn(chunks(log.slice(from), 1 + (from % 4)));
      await applyIn([log.slice(from)]);
      await expectConsistent();
    }
    expect(await counts()).toEqual(final);
    const rows = await sql<{ policies: string }>`select policies::text from policy_counts where policies < 0`.execute(
      t.db,
    );
    expect(rows.rows).toEqual([]);
  });

  it('applies a batch retried after its transaction failed exactly once', async () => {
    await empty();
    for (const batch of chunks(log, 2)) {
      await expect(
        t.db.transaction().execute(async (trx) => {
          await policiesProjection.apply(trx, batch);
          throw new Error('connection lost before the checkpoint');
        }),
      ).rejects.toThrow('connection lost');
      await applyIn([batch]);
      await expectConsistent();
    }
  });

  it('counts each change once when two processes apply the same batches at the same time', async () => {
    await empty();
    for (const batch of chunks(log, 3)) {
      await Promise.all([applyIn([batch]), applyIn([batch])]);
      await expectConsistent();
    }
    // And with different batch boundaries: one process a whole event at a time, the other in threes.
    for (let round = 0; round < 5; round += 1) {
      await empty();
      await Promise.all([applyIn(chunks(log, 1)), applyIn(chunks(log, 3)), applyIn([log])]);
      await expectConsistent();
    }
  });
});

import { TriggerBreached } from '@cropcover/contracts';
import { openProjectorTestDatabase, type ProjectorTestDatabase, policyStory } from '@cropcover/projector/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breachOrganization, type LoggedBreach, recordBreachDeliveries } from './breach-deliveries';

describe('the organization a breach is delivered to', () => {
  let t: ProjectorTestDatabase;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('breach_organization');
  });

  afterAll(async () => {
    await t.close();
  });

  const loggedBreach = async (policyId: string): Promise<TriggerBreached> => {
    const story = policyStory({
      policyId,
      organizationId: 'org-a',
      perils: ['flood'],
      termStart: '2026-04-01',
      termEnd: '2026-04-30',
      issuedAt: '2026-03-28T08:00:00.000Z',
    });
    story.evaluate({ flood: [{ date: '2026-04-02', value: 200, revision: 1 }] }, '2026-04-05T06:00:00.000Z');
    await t.eventStore.append(story.streamId, story.events, 'no_stream');
    return TriggerBreached.parse(story.events.find((event) => event.type === 'TriggerBreached')?.data);
  };

  it('is the breach’s own, without reading the policy', async () => {
    const breach = await loggedBreach('p-own');
    // A policy the log does not hold: reading it would fail.
    expect(await breachOrganization(t.eventStore, { ...breach, policy_id: 'p-unlogged' })).toBe('org-a');
  });

  it('is the policy’s, from its PolicyIssued, for a breach recorded before it carried one', async () => {
    const { organization_id: _, ...recordedBefore } = await loggedBreach('p-old');
    expect(await breachOrganization(t.eventStore, recordedBefore)).toBe('org-a');
  });
});

describe('recording a batch of breaches', () => {
  let t: ProjectorTestDatabase;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('breach_batch');
  });

  afterAll(async () => {
    await t.close();
  });

  const breachOf = (policyId: string): TriggerBreached => {
    const story = policyStory({
      policyId,
      organizationId: 'org-a',
      perils: ['flood'],
      termStart: '2026-04-01',
      termEnd: '2026-04-30',
      issuedAt: '2026-03-28T08:00:00.000Z',
    });
    story.evaluate({ flood: [{ date: '2026-04-02', value: 200, revision: 1 }] }, '2026-04-05T06:00:00.000Z');
    return TriggerBreached.parse(story.events.find((event) => event.type === 'TriggerBreached')?.data);
  };

  const target = (webhookId: string, organizationId: string, createdAt: bigint, isActive = true) => ({
    webhook_id: webhookId,
    organization_id: organizationId,
    url: `https://receiver.example/${webhookId}`,
    is_active: isActive,
    created_commit_position: createdAt.toString(),
    created_prepare_position: '0',
  });

  it('adds one delivery per breach and earlier active subscription, and nothing when the batch comes again', async () => {
    await t.db
      .insertInto('webhook_targets')
      .values([
        target('wh-before', 'org-a', 10n),
        target('wh-after', 'org-a', 100n),
        target('wh-deactivated', 'org-a', 10n, false),
        target('wh-other-org', 'org-b', 10n),
      ])
      .execute();
    const batch: LoggedBreach[] = ['p-1', 'p-2', 'p-3'].map((policyId, i) => ({
      eventId: `breach-${i}`,
      position: { commit: 50n, prepare: BigInt(i) },
      organizationId: 'org-a',
      breach: breachOf(policyId),
      trace: {},
    }));
    const now = new Date('2026-04-05T06:00:01.000Z');
    // A batch may hold a message twice (Kafka redelivers at least once).
    const withRepeat = [...batch, batch[0]!];

    expect(await recordBreachDeliveries(t.db, withRepeat, now, { awaitCheckpoint: false })).toBe(3);
    expect(await recordBreachDeliveries(t.db, withRepeat, now, { awaitCheckpoint: false })).toBe(0);

    const deliveries = await t.db
      .selectFrom('webhook_deliveries')
      .select(['event_id', 'webhook_id', 'policy_id', 'status', 'attempt_count'])
      .orderBy('event_id')
      .execute();
    expect(deliveries).toEqual(
      batch.map(({ eventId, breach }) => ({
        event_id: eventId,
        webhook_id: 'wh-before',
        policy_id: breach.policy_id,
        status: 'pending',
        attempt_count: 0,
      })),
    );
  });
});

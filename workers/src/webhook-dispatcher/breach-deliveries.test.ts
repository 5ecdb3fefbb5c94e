import { TriggerBreached } from '@cropcover/contracts';
import { openProjectorTestDatabase, type ProjectorTestDatabase, policyStory } from '@cropcover/projector/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breachOrganization } from './breach-deliveries';

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

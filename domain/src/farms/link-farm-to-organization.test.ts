import { FarmEvent } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { insuredFarm } from '../testing/insured-farm';
import { evolveFarm, initialFarm } from './farm';
import { linkFarmToOrganization } from './link-farm-to-organization';

describe('linking a farm to the insurer organization', () => {
  const now = new Date('2026-03-25T08:00:00.000Z');

  it('links once, with the insurer relationship', () => {
    const events = linkFarmToOrganization({ organizationId: 'org-1', now }, insuredFarm);
    expect(events).toEqual([
      {
        type: 'FarmLinkedToOrganization',
        data: { farm_id: 'farm-1', organization_id: 'org-1', relationship: 'insurer', linked_at: now.toISOString() },
      },
    ]);
    expect(FarmEvent.parse(events[0])).toEqual(events[0]);
    const linked = events.reduce(evolveFarm, insuredFarm);
    expect(linked.status === 'registered' && linked.organizations).toEqual([
      { organization_id: 'org-1', relationship: 'insurer', linked_at: now.toISOString() },
    ]);
    expect(linkFarmToOrganization({ organizationId: 'org-1', now }, linked)).toEqual([]);
  });

  it('refuses an unknown farm', () => {
    expect(() => linkFarmToOrganization({ organizationId: 'org-1', now }, initialFarm)).toThrow(
      expect.objectContaining({ reason: 'not_found' }),
    );
  });
});

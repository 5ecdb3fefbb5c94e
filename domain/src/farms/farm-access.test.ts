import { describe, expect, it } from 'vitest';
import { admin, farmOwner, stranger } from '../testing/actors';
import { insurer, otherInsurer } from '../testing/insured-farm';
import { ruleSpec } from '../testing/rule-spec';
import { canManageFarm, canSeeFarm, type FarmAudience, isLiveGrant, visibleOrganizations } from './farm-access';

const TODAY = '2026-05-10';

// A farm as the read models hold it: the rule needs no aggregate.
const grantedToOrg1: FarmAudience = {
  ownerSubject: 'owner',
  isActive: true,
  organizations: [{ organization_id: 'org-1', expires_on: null }],
};
const deactivated: FarmAudience = { ...grantedToOrg1, isActive: false };
const expiredYesterday: FarmAudience = {
  ...grantedToOrg1,
  organizations: [{ organization_id: 'org-1', expires_on: '2026-05-09' }],
};
const lastDayToday: FarmAudience = {
  ...grantedToOrg1,
  organizations: [{ organization_id: 'org-1', expires_on: TODAY }],
};

describe('seeing a farm', () => {
  const spec = ruleSpec((actor, farm: FarmAudience) => canSeeFarm(actor, farm, { today: TODAY }));

  it('shows it to its owner', () => spec.given(grantedToOrg1).when(farmOwner).thenAllows());
  it('shows it to an organization with a live grant', () => spec.given(grantedToOrg1).when(insurer).thenAllows());
  it('shows it through the last day of a grant', () => spec.given(lastDayToday).when(insurer).thenAllows());
  it('hides it once the grant expired', () => spec.given(expiredYesterday).when(insurer).thenRefuses());
  it('shows it to an admin', () => spec.given(grantedToOrg1).when(admin).thenAllows());
  it('hides it from an organization without a grant', () => spec.given(grantedToOrg1).when(otherInsurer).thenRefuses());
  it('hides it from anyone else', () => spec.given(grantedToOrg1).when(stranger).thenRefuses());
  it('hides a deactivated farm from everyone, unless inactive farms are asked for', () => {
    spec.given(deactivated).when(farmOwner).thenRefuses();
    spec.given(deactivated).when(admin).thenRefuses();
  });
});

describe('seeing a farm, inactive ones included', () => {
  const spec = ruleSpec((actor, farm: FarmAudience) =>
    canSeeFarm(actor, farm, { includeInactive: true, today: TODAY }),
  );

  it('shows a deactivated farm to its owner', () => spec.given(deactivated).when(farmOwner).thenAllows());
  it('shows a deactivated farm to an admin', () => spec.given(deactivated).when(admin).thenAllows());
  it('hides a deactivated farm from a granted organization', () => spec.given(deactivated).when(insurer).thenRefuses());
  it('still shows an active farm to a granted organization', () =>
    spec.given(grantedToOrg1).when(insurer).thenAllows());
});

describe('managing a farm', () => {
  const spec = ruleSpec(canManageFarm);

  it('lets its owner change it', () => spec.given(grantedToOrg1).when(farmOwner).thenAllows());
  it('lets an admin change it', () => spec.given(grantedToOrg1).when(admin).thenAllows());
  it('refuses a granted organization, which only reads it', () =>
    spec.given(grantedToOrg1).when(insurer).thenRefuses());
});

describe("a farm's organizations", () => {
  const grants = [{ organization_id: 'org-1' }, { organization_id: 'org-2' }, { organization_id: 'org-3' }];

  it('are all shown to the owner and admins', () => {
    expect(visibleOrganizations(farmOwner, grantedToOrg1, grants)).toEqual(grants);
    expect(visibleOrganizations(admin, grantedToOrg1, grants)).toEqual(grants);
  });
  it('show an organization only its own entry, never the farmer’s others', () => {
    expect(visibleOrganizations(insurer, grantedToOrg1, grants)).toEqual([{ organization_id: 'org-1' }]);
    expect(visibleOrganizations(stranger, grantedToOrg1, grants)).toEqual([]);
  });
});

describe('a grant', () => {
  it('is live through its last day, for good without one', () => {
    expect(isLiveGrant({ expires_on: null }, TODAY)).toBe(true);
    expect(isLiveGrant({ expires_on: TODAY }, TODAY)).toBe(true);
    expect(isLiveGrant({ expires_on: '2026-05-09' }, TODAY)).toBe(false);
  });
});

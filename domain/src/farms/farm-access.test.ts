import { describe, it } from 'vitest';
import { admin, farmOwner, stranger } from '../testing/actors';
import { insurer, otherInsurer } from '../testing/insured-farm';
import { ruleSpec } from '../testing/rule-spec';
import { canManageFarm, canSeeFarm, type FarmAudience } from './farm-access';

// A farm as the read models hold it: the rule needs no aggregate.
const linkedToOrg1: FarmAudience = {
  ownerSubject: 'owner',
  isActive: true,
  organizations: [{ organization_id: 'org-1' }],
};
const deactivated: FarmAudience = { ...linkedToOrg1, isActive: false };

describe('seeing a farm', () => {
  const spec = ruleSpec(canSeeFarm);

  it('shows it to its owner', () => spec.given(linkedToOrg1).when(farmOwner).thenAllows());
  it('shows it to a linked organization', () => spec.given(linkedToOrg1).when(insurer).thenAllows());
  it('shows it to an admin', () => spec.given(linkedToOrg1).when(admin).thenAllows());
  it('hides it from an organization not linked to it', () => spec.given(linkedToOrg1).when(otherInsurer).thenRefuses());
  it('hides it from anyone else', () => spec.given(linkedToOrg1).when(stranger).thenRefuses());
  it('hides a deactivated farm from everyone, unless inactive farms are asked for', () => {
    spec.given(deactivated).when(farmOwner).thenRefuses();
    spec.given(deactivated).when(admin).thenRefuses();
  });
});

describe('seeing a farm, inactive ones included', () => {
  const spec = ruleSpec((actor, farm: FarmAudience) => canSeeFarm(actor, farm, { includeInactive: true }));

  it('shows a deactivated farm to its owner', () => spec.given(deactivated).when(farmOwner).thenAllows());
  it('shows a deactivated farm to an admin', () => spec.given(deactivated).when(admin).thenAllows());
  it('hides a deactivated farm from a linked organization', () => spec.given(deactivated).when(insurer).thenRefuses());
  it('still shows an active farm to a linked organization', () => spec.given(linkedToOrg1).when(insurer).thenAllows());
});

describe('managing a farm', () => {
  const spec = ruleSpec(canManageFarm);

  it('lets its owner change it', () => spec.given(linkedToOrg1).when(farmOwner).thenAllows());
  it('lets an admin change it', () => spec.given(linkedToOrg1).when(admin).thenAllows());
  it('refuses a linked organization, which only reads it', () => spec.given(linkedToOrg1).when(insurer).thenRefuses());
});

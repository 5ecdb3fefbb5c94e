import { describe, it } from 'vitest';
import { canActForOrganization } from './actor';
import { admin, stranger } from './testing/actors';
import { insurer, otherInsurer } from './testing/insured-farm';
import { ruleSpec } from './testing/rule-spec';

describe('acting for an organization', () => {
  const spec = ruleSpec(canActForOrganization);

  it('lets an actor act for its own organization', () => spec.given('org-1').when(insurer).thenAllows());
  it('refuses another organization’s actor', () => spec.given('org-1').when(otherInsurer).thenRefuses());
  it('lets an admin act for any organization', () => spec.given('org-1').when(admin).thenAllows());
  it('refuses an actor without an organization', () => spec.given('org-1').when(stranger).thenRefuses());
});

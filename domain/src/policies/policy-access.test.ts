import { describe, it } from 'vitest';
import { admin } from '../testing/actors';
import { insurer, otherInsurer } from '../testing/insured-farm';
import { ruleSpec } from '../testing/rule-spec';
import { canSeePolicy } from './policy-access';

describe('seeing a policy', () => {
  const spec = ruleSpec(canSeePolicy);
  const issuedToOrg1 = { organization_id: 'org-1' };

  it('shows it to the organization it was issued to', () => spec.given(issuedToOrg1).when(insurer).thenAllows());
  it('hides it from another organization', () => spec.given(issuedToOrg1).when(otherInsurer).thenRefuses());
  it('shows it to an admin', () => spec.given(issuedToOrg1).when(admin).thenAllows());
});

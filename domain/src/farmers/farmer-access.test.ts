import { describe, it } from 'vitest';
import { admin, farmOwner, stranger } from '../testing/actors';
import { ruleSpec } from '../testing/rule-spec';
import { canSeeFarmer } from './farmer-access';

describe('looking a farmer up', () => {
  const spec = ruleSpec(canSeeFarmer);
  const unconsenting = { subject: 'owner', data_consent_given: false };

  it('shows the farmer to themself', () => spec.given(unconsenting).when(farmOwner).thenAllows());
  it('shows any farmer to an admin', () => spec.given(unconsenting).when(admin).thenAllows());
  it('hides a farmer who did not consent from anyone else', () =>
    spec.given(unconsenting).when(stranger).thenRefuses());
  it('shows a farmer who consented to anyone', () =>
    spec
      .given({ ...unconsenting, data_consent_given: true })
      .when(stranger)
      .thenAllows());
});

import { describe, it } from 'vitest';
import {
  dataProvider,
  dataProviderWithoutOrg,
  otherDataProvider,
  sameOrgInsurer,
  sourceAdmin,
} from '../testing/index-sources';
import { ruleSpec } from '../testing/rule-spec';
import { canWriteReadings } from './source-access';

describe("writing a source's readings", () => {
  const spec = ruleSpec(canWriteReadings).given({ organizationId: 'org-data' });

  it("lets the owner's data provider write them", () => spec.when(dataProvider).thenAllows());
  it('lets an admin write them', () => spec.when(sourceAdmin).thenAllows());
  it("refuses another organization's data provider", () => spec.when(otherDataProvider).thenRefuses());
  it("refuses the owner's insurer", () => spec.when(sameOrgInsurer).thenRefuses());
  it('refuses a data provider acting for no organization', () => spec.when(dataProviderWithoutOrg).thenRefuses());
});

import type { Peril, PerilDataSource, PolicyDataSources, ReadingIndex, TermSheet } from '@cropcover/contracts';
import { fieldLocation } from '../../index-sources/source-location';
import { DEFAULT_SHEET } from '../term-sheet/builtin';
import { productCover } from '../term-sheet/product';

// SPEC §7: with no source named and no deployment default, a policy trusts the per-field readings its own
// organization posted. Those form one unregistered field source per organization, under this id (a
// registered source's id is a UUID, so the two never meet).
const ORGANIZATION_FIELDS_PREFIX = 'organization-fields:';

export const organizationFieldSourceId = (organizationId: string): string =>
  `${ORGANIZATION_FIELDS_PREFIX}${organizationId}`;

/** The data a peril reads when nothing else is named: its organization's own readings of the field. */
export const ownFieldData = (
  organizationId: string,
  farmId: string,
  fieldId: string,
  index: ReadingIndex,
): PerilDataSource => ({
  source_id: organizationFieldSourceId(organizationId),
  kind: 'field',
  index,
  location: fieldLocation(farmId, fieldId),
});

/** The data of each peril in `perils`, which must all be present: resolution gives every peril its data. */
export const dataOfPeril = (sources: PolicyDataSources, peril: Peril): PerilDataSource => {
  const data = sources[peril];
  if (data === undefined) throw new RangeError(`no data source resolved for ${peril}`);
  return data;
};

/** Every peril reading its organization's own readings of the field: what a cover naming no source and
 *  finding no deployment default reads. */
export const ownFieldDataSources = (
  organizationId: string,
  farmId: string,
  fieldId: string,
  perils: readonly Peril[],
  sheet: TermSheet = DEFAULT_SHEET,
): PolicyDataSources =>
  Object.fromEntries(
    perils.map((peril) => [peril, ownFieldData(organizationId, farmId, fieldId, productCover(sheet, peril).reading)]),
  );

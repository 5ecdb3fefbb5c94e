import type { PolicyDataSources, PolicyEnvironment, PolicyEvent, PolicyIssueRequest } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import type { Farm } from '../farms/farm';
import { utcDate } from '../insurance/calendar/calendar-date';
import { dataOfPeril } from '../insurance/index-data/peril-data';
import type { ReadingHistory } from '../insurance/index-data/reading-history';
import { displayedDecimal } from '../insurance/money/rational';
import type { ProductTerms } from '../insurance/term-sheet/product';
import { priceCover } from '../insurance/underwriting/priced-cover';
import { PLATFORM_VERSION } from '../platform-version';
import { defaultProgrammeId } from '../programmes/default-programme';
import type { Policy } from './policy';

/** Days after term end during which late readings still count and the policy cannot expire. */
export const DEFAULT_SETTLEMENT_PERIOD_DAYS = 30;

export interface IssuePolicy {
  readonly actor: Actor;
  readonly policyId: string;
  readonly environment: PolicyEnvironment;
  readonly request: PolicyIssueRequest;
  /** The farm as the registry holds it. */
  readonly farm: Farm;
  /** The data each peril reads, resolved from the field: frozen into the policy. */
  readonly dataSources: PolicyDataSources;
  /** Each peril's past readings from that data, for burning-cost pricing exactly as the quote saw them. */
  readonly history: ReadingHistory;
  readonly settlementPeriodDays: number;
  readonly now: Date;
  /** The product version issued on; `default` when absent. */
  readonly product?: ProductTerms;
}

/** Issues the cover at the price its quote shows, freezing the product version and its whole sheet: the
 *  policy pays on them whatever later versions say. */
export const issuePolicy = (command: IssuePolicy, state: Policy): PolicyEvent[] => {
  const organizationId = command.actor.organizationId;
  if (organizationId === null) {
    throw new DomainError('forbidden', 'organization_required', 'issuing a policy needs an organization (org_id)');
  }
  if (state.status !== 'not_issued') {
    throw new DomainError('conflict', 'policy_exists', `policy ${command.policyId} already exists`);
  }
  const { request } = command;
  const cover = priceCover(
    {
      farm: command.farm,
      perils: request.perils,
      sumInsured: request.sum_insured,
      exposureUnits: request.exposure_units,
      currency: request.currency,
      term: { start: request.term_start, end: request.term_end },
      today: utcDate(command.now),
      history: command.history,
      dataSources: command.dataSources,
    },
    command.product,
  );
  const field = cover.farm.fields.find((candidate) => candidate.fieldId === request.field_id);
  return [
    {
      type: 'PolicyIssued',
      data: {
        policy_id: command.policyId,
        organization_id: organizationId,
        environment: command.environment,
        farm_id: cover.farm.farmId,
        field_id: request.field_id,
        owner_farmer_id: cover.farm.ownerFarmerId,
        farm_name: cover.farm.attributes.name,
        field_name: field?.name ?? null,
        field_area_ha: field?.areaHa ?? null,
        field_location: field === undefined ? null : `${field.location.lat},${field.location.lon}`,
        crop_type: request.crop_type ?? field?.cropType ?? null,
        currency: cover.currency,
        sum_insured_minor: cover.sumInsuredMinor,
        premium_minor: cover.pricing.premiumMinor,
        rate: displayedDecimal(cover.pricing.rate),
        pricing: cover.pricing.perils.map((price) => ({
          peril: price.peril,
          rate: displayedDecimal(price.rate),
          premium_minor: price.premiumMinor,
          method: price.method,
          seasons_used: price.seasonsUsed,
          credibility: displayedDecimal(price.credibility),
        })),
        ...(request.exposure_units === undefined ? {} : { exposure_units: request.exposure_units }),
        ...(cover.pricing.payers === undefined
          ? {}
          : {
              premium_shares: cover.pricing.payers.map(({ payer, share, premiumMinor }) => ({
                payer,
                share,
                premium_minor: premiumMinor,
              })),
            }),
        perils: [...request.perils],
        triggers: [...cover.triggers],
        term_start: cover.term.start,
        term_end: cover.term.end,
        settlement_period_days: command.settlementPeriodDays,
        data_sources: Object.fromEntries(
          request.perils.map((peril) => [peril, dataOfPeril(command.dataSources, peril)]),
        ),
        product: cover.product.ref,
        term_sheet: cover.product.sheet,
        programme_id: request.programme_id ?? defaultProgrammeId(organizationId, cover.currency),
        issued_at: command.now.toISOString(),
        platform_version: PLATFORM_VERSION,
      },
    },
  ];
};

import { DateTime, TrimmedText } from '../common';
import { CurrencyCode } from '../currency';
import { FieldId } from '../registry/field';
import { z } from '../zod';
import { CalendarDate } from './calendar-date';
import { DataCoverage, SkipReason } from './data-coverage';
import { DataSourceChoice, PerilDataSource } from './index-sources';
import { ExposureUnits, SumInsured } from './money-amount';
import { PageNumber, PageSize } from './pagination';
import { Comparison, Peril, PerilList, PolicyEnvironment, PolicyStatus, TriggerIndex } from './peril';
import { PolicyProduct, ProductChoice } from './products';
import { ReadingsFile } from './provenance';
import { FarmReference, PayerPremium, refineSumInsuredDecimals } from './quote';

export const PolicyIssueRequest = z
  .strictObject({
    farm_id: FarmReference,
    field_id: FieldId,
    crop_type: TrimmedText(100).optional(),
    perils: PerilList,
    sum_insured: SumInsured,
    /** A product insured per exposure unit: how many, as for a quote. */
    exposure_units: ExposureUnits.optional(),
    currency: CurrencyCode.optional(),
    term_start: CalendarDate,
    term_end: CalendarDate,
    data_sources: DataSourceChoice.optional(),
    /** The product version to issue on, frozen into the policy with its whole sheet; absent: `default`. */
    product: ProductChoice.optional(),
    /** The programme the policy joins; absent: the organization's default for the policy's currency. */
    programme_id: z.string().min(1).max(100).optional(),
  })
  .superRefine(refineSumInsuredDecimals)
  .openapi('PolicyIssueRequest');
export type PolicyIssueRequest = z.infer<typeof PolicyIssueRequest>;

export const TriggerStatus = z
  .object({
    peril: Peril,
    trigger_index: TriggerIndex,
    /** The aggregate of the last evaluation; null while there is no reading in the window. */
    current_index_reading: z.number().nullable(),
    trigger_threshold: z.number(),
    comparison: Comparison,
    data_available: z.boolean(),
    /** The data behind `current_index_reading`; absent while it is null. */
    coverage: DataCoverage.optional(),
    /** Why `current_index_reading` is null; absent while it is not. */
    skipped_reason: SkipReason.optional(),
    /** The source and location this trigger reads, frozen at issue. */
    data_source: PerilDataSource.optional(),
    /** The files behind the values of `current_index_reading` (INDEX-DATA §4), as an evaluation's
     *  provenance names them; absent while it is null. */
    files: z.array(ReadingsFile).optional(),
  })
  .openapi('TriggerStatus');
export type TriggerStatus = z.infer<typeof TriggerStatus>;

export const Policy = z
  .object({
    policy_id: z.string(),
    organization_id: z.string(),
    environment: PolicyEnvironment,
    farm_id: z.string(),
    field_id: z.string(),
    farm_name: z.string().optional(),
    field_name: z.string().optional(),
    field_area_ha: z.number().optional(),
    field_location: z.string().optional().openapi({ example: '-1.29,36.82' }),
    crop_type: z.string().optional(),
    sum_insured: z.number(),
    currency: z.string(),
    premium: z.number(),
    /** Who pays the premium, when the product's sheet splits it; they add up to `premium`. */
    premium_shares: z.array(PayerPremium).optional(),
    /** The exposure units insured, for a product insured per exposure unit. */
    exposure_units: z.number().optional(),
    perils: z.array(Peril),
    /** The product version the policy was issued on; `default` version 0 for a policy issued before
     *  products. */
    product: PolicyProduct,
    triggers: z.array(TriggerStatus),
    status: PolicyStatus,
    issued_at: DateTime,
    term_start: CalendarDate,
    term_end: CalendarDate,
    platform_version: z.string(),
    next_monitoring_date: CalendarDate.optional(),
    /** When the policy was closed at term end + settlement period (finality); absent while it is open. */
    closed_at: DateTime.optional(),
  })
  .openapi('Policy');
export type Policy = z.infer<typeof Policy>;

export const PolicyListItem = z
  .object({
    policy_id: z.string(),
    farm_id: z.string(),
    field_id: z.string(),
    crop_type: z.string().optional(),
    sum_insured: z.number(),
    currency: z.string(),
    premium: z.number(),
    perils: z.array(Peril),
    status: PolicyStatus,
    issued_at: DateTime,
    term_start: CalendarDate,
    term_end: CalendarDate,
    next_monitoring_date: CalendarDate.optional(),
  })
  .openapi('PolicyListItem');
export type PolicyListItem = z.infer<typeof PolicyListItem>;

export const PolicyListQuery = z.strictObject({
  status: PolicyStatus.optional(),
  farm_id: FarmReference.optional(),
  peril: Peril.optional(),
  page: PageNumber,
  page_size: PageSize,
});
export type PolicyListQuery = z.infer<typeof PolicyListQuery>;

export const PolicyList = z
  .object({
    items: z.array(PolicyListItem),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .openapi('PolicyList');
export type PolicyList = z.infer<typeof PolicyList>;

export const PolicyPathParams = z.strictObject({ policy_id: z.string().min(1).max(100) });

export const LapseRequest = z.strictObject({ reason: TrimmedText(500) }).openapi('LapseRequest');
export type LapseRequest = z.infer<typeof LapseRequest>;

/** What a route answers for a policy (or payout) the caller may not see: 404, never 403, so another
 *  organization cannot learn which ids exist (SPEC §4). */
export const UNKNOWN_POLICY = { description: "Unknown, or another organization's", codes: ['not_found'] } as const;

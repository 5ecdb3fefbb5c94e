import { CurrencyCode } from '../currency';
import { FieldId } from '../registry/field';
import { z } from '../zod';
import { CalendarDate } from './calendar-date';
import { DataSourceChoice } from './index-sources';
import { amountFitsCurrency, ExposureUnits, SumInsured } from './money-amount';
import { Peril, PerilList, PricingMethod } from './peril';
import { PolicyProduct, ProductChoice } from './products';
import { PolicyDataSources } from './provenance';

/** A farm's id as a client names it; blank or padded text names no farm, so it is refused, not looked up. */
export const FarmReference = z
  .string()
  .min(1)
  .max(100)
  .regex(/^\S(?:[\s\S]*\S)?$/, { message: 'must not be blank or start or end with whitespace' });

/** sum_insured with more decimals than the given currency has is refused on the field itself. */
export const refineSumInsuredDecimals = (
  request: { sum_insured: number; currency?: string | undefined },
  context: z.RefinementCtx,
): void => {
  if (request.currency !== undefined && !amountFitsCurrency(request.sum_insured, request.currency)) {
    context.addIssue({
      code: 'custom',
      path: ['sum_insured'],
      message: `has more decimals than ${request.currency} allows`,
    });
  }
};

/** term_start and term_end are an extension of the seed's quote: burning-cost pricing and the drought
 *  threshold depend on the term, so a quote for the issue's term prices exactly like the issue. Without
 *  them the quote prices a one-year term starting today. */
export const QuoteRequest = z
  .strictObject({
    farm_id: FarmReference,
    field_id: FieldId,
    perils: PerilList,
    sum_insured: SumInsured,
    /** A product insured per exposure unit (TERM-SHEETS.md §5): how many (acres, head, …), ≤ 6 decimals;
     *  `sum_insured` is then what they make, exposure units × the sheet's value, rounded once. */
    exposure_units: ExposureUnits.optional(),
    currency: CurrencyCode.optional(),
    term_start: CalendarDate.optional(),
    term_end: CalendarDate.optional(),
    data_sources: DataSourceChoice.optional(),
    /** The product version to price (TERM-SHEETS.md §2.3); absent: `default`. */
    product: ProductChoice.optional(),
  })
  .superRefine(refineSumInsuredDecimals)
  .refine((request) => (request.term_start === undefined) === (request.term_end === undefined), {
    message: 'term_start and term_end go together',
    path: ['term_end'],
  })
  .openapi('QuoteRequest');
export type QuoteRequest = z.infer<typeof QuoteRequest>;

export const PerilPricing = z
  .object({
    rate: z.number(),
    premium: z.number(),
    method: PricingMethod,
    /** Complete past seasons blended in; 0 with the base rate. */
    seasons_used: z.number().int(),
    /** Z = n / (n + k), the weight of those seasons' burning cost against the base rate (6 decimals). */
    credibility: z.number().min(0).max(1),
  })
  .openapi('PerilPricing');
export type PerilPricing = z.infer<typeof PerilPricing>;

export const QuoteBreakdown = z.partialRecord(Peril, PerilPricing).openapi('QuoteBreakdown');

/** What each payer of the premium pays (a sheet's `pricing.premium_shares`), in major units. */
export const PayerPremium = z
  .object({ payer: z.string(), share: z.number(), premium: z.number() })
  .openapi('PayerPremium');
export type PayerPremium = z.infer<typeof PayerPremium>;

export const Quote = z
  .object({
    farm_id: z.string(),
    field_id: z.string(),
    perils: z.array(Peril),
    sum_insured: z.number(),
    currency: z.string(),
    rate: z.number(),
    premium: z.number(),
    breakdown: QuoteBreakdown,
    /** Who pays the premium, when the product's sheet splits it; they add up to `premium`. */
    premium_shares: z.array(PayerPremium).optional(),
    /** The exposure units priced, for a product insured per exposure unit. */
    exposure_units: z.number().optional(),
    term_start: CalendarDate,
    term_end: CalendarDate,
    /** The data each peril would read: what the burning cost priced on and issue would freeze. */
    data_sources: PolicyDataSources,
    /** The product version priced, for issue to name and price identically. */
    product: PolicyProduct,
    platform_version: z.string(),
  })
  .openapi('Quote');
export type Quote = z.infer<typeof Quote>;

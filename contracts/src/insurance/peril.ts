import { z } from '../zod';

// Enumerations of the insurance area: the seed's peril and status values, extended by the perils and
// readings of term sheets (TERM-SHEETS.md §1.2); the seed's four come first and stay as they are.
export const Peril = z
  .enum([
    'drought',
    'flood',
    'vegetation_stress',
    'storm',
    'excess_rainfall',
    'unseasonal_rain',
    'dry_spell',
    'cold',
    'frost',
    'heat',
    'humidity',
    'yield_shortfall',
    // Version 2 (TERM-SHEETS.md §5): heat on livestock and crops, disease-congenial weather, forage,
    // livestock mortality (IBLI) and modelled losses (ARC, CCRIF).
    'heat_stress',
    'disease_risk',
    'forage_deficit',
    'livestock_mortality',
    'modelled_loss',
  ])
  .openapi('Peril');
export type Peril = z.infer<typeof Peril>;

/** The name a term sheet gives a cover's index (`cumulative_rainfall_mm`, `rain_days_gt_10mm`): any
 *  snake_case name, shown as `events[].index` and `trigger_index`. */
export const TriggerIndex = z
  .string()
  .max(64)
  .regex(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/, { message: 'must be a snake_case name' })
  .openapi('TriggerIndex', { example: 'cumulative_rainfall_mm' });
export type TriggerIndex = z.infer<typeof TriggerIndex>;

/** The reading a data provider pushes; covers aggregate these. */
export const ReadingIndex = z
  .enum([
    'rainfall_mm',
    'ndvi',
    'wind_speed_ms',
    'tmin_c',
    'tmax_c',
    'relative_humidity_pct',
    'water_balance_mm',
    'area_yield_t_ha',
    'loss_factor',
    // Version 2 (TERM-SHEETS.md §5): °F temperatures for °F contracts, the daily mean, IBLI's predicted
    // mortality, KLIP's forage index, a modelled loss in minor units and US area yields.
    'tmax_f',
    'tmin_f',
    'tmean_c',
    'predicted_mortality_pct',
    'forage_index',
    'modelled_loss_minor',
    'area_yield_bu_ac',
  ])
  .openapi('ReadingIndex');
export type ReadingIndex = z.infer<typeof ReadingIndex>;

export const Comparison = z.enum(['lte', 'gte']).openapi('Comparison');
export type Comparison = z.infer<typeof Comparison>;

export const PolicyStatus = z.enum(['active', 'expired', 'claimed', 'lapsed']).openapi('PolicyStatus');
export type PolicyStatus = z.infer<typeof PolicyStatus>;

export const PayoutStatus = z.enum(['approved', 'settled']).openapi('PayoutStatus');
export type PayoutStatus = z.infer<typeof PayoutStatus>;

export const PolicyEnvironment = z.enum(['sandbox', 'production']).openapi('PolicyEnvironment');
export type PolicyEnvironment = z.infer<typeof PolicyEnvironment>;

export const PricingMethod = z.enum(['base_rate', 'burning_cost', 'fixed_rate']).openapi('PricingMethod');
export type PricingMethod = z.infer<typeof PricingMethod>;

/** A non-empty list of perils without duplicates. */
export const PerilList = z
  .array(Peril)
  .min(1, { message: 'must name at least one peril' })
  .refine((perils) => new Set(perils).size === perils.length, { message: 'must not repeat a peril' });

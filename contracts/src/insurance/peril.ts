import { z } from '../zod';

// Enumerations of the insurance area: the seed's peril and status values, and SPEC §7's trigger table.
export const Peril = z.enum(['drought', 'flood', 'vegetation_stress', 'storm']).openapi('Peril');
export type Peril = z.infer<typeof Peril>;

export const TriggerIndex = z
  .enum(['cumulative_rainfall_mm', 'max_5day_rainfall_mm', 'mean_ndvi_30d', 'max_wind_speed_ms'])
  .openapi('TriggerIndex');
export type TriggerIndex = z.infer<typeof TriggerIndex>;

/** The reading a data provider pushes; triggers aggregate these. */
export const ReadingIndex = z.enum(['rainfall_mm', 'ndvi', 'wind_speed_ms']).openapi('ReadingIndex');
export type ReadingIndex = z.infer<typeof ReadingIndex>;

export const Comparison = z.enum(['lte', 'gte']).openapi('Comparison');
export type Comparison = z.infer<typeof Comparison>;

export const PolicyStatus = z.enum(['active', 'expired', 'claimed', 'lapsed']).openapi('PolicyStatus');
export type PolicyStatus = z.infer<typeof PolicyStatus>;

export const PayoutStatus = z.enum(['approved', 'settled']).openapi('PayoutStatus');
export type PayoutStatus = z.infer<typeof PayoutStatus>;

export const PolicyEnvironment = z.enum(['sandbox', 'production']).openapi('PolicyEnvironment');
export type PolicyEnvironment = z.infer<typeof PolicyEnvironment>;

export const PricingMethod = z.enum(['base_rate', 'burning_cost']).openapi('PricingMethod');
export type PricingMethod = z.infer<typeof PricingMethod>;

/** A non-empty list of perils without duplicates. */
export const PerilList = z
  .array(Peril)
  .min(1, { message: 'must name at least one peril' })
  .refine((perils) => new Set(perils).size === perils.length, { message: 'must not repeat a peril' });

import { CurrencyCode } from '../currency';
import { z } from '../zod';
import type { ReadingIndex } from './peril';

// INDEX-DATA.md §1: a source as its producer describes its data. Every field is optional at registration;
// a source registered without them reads as before (daily, the cell, the bounds of its index name).

export const SourceUnit = z
  .enum([
    'mm',
    'degC',
    'degF',
    'm_s',
    'pct',
    'ndvi',
    'fraction',
    't_ha',
    'bu_ac',
    'kg_ha',
    'head',
    'count',
    'index',
    'minor',
  ])
  .openapi('SourceUnit');
export type SourceUnit = z.infer<typeof SourceUnit>;

export const Cadence = z
  .enum(['daily', 'pentad', 'dekad', '8_day', '16_day', 'month', 'season'])
  .openapi('Cadence', { description: 'the period one reading covers, dated by its first day' });
export type Cadence = z.infer<typeof Cadence>;

export const Sampling = z
  .enum(['cell', 'bilinear', 'unit_mean'])
  .openapi('Sampling', { description: 'how a location reads a grid' });
export type Sampling = z.infer<typeof Sampling>;

export const ProductDescriptor = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    version: z.string().trim().min(1).max(50).optional(),
    url: z.url().max(500).optional(),
  })
  .openapi('ProductDescriptor', { description: 'what the data is, e.g. CHIRPS 2.0' });
export type ProductDescriptor = z.infer<typeof ProductDescriptor>;

export const ModelDescriptor = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    version: z.string().trim().min(1).max(50),
    digest: z.string().trim().min(1).max(200),
  })
  .openapi('ModelDescriptor', { description: 'the model that produced a modelled index' });
export type ModelDescriptor = z.infer<typeof ModelDescriptor>;

/** The descriptors a registration may carry, each optional. */
export const SourceDescriptorFields = {
  unit: SourceUnit.optional(),
  /** Only with `unit: minor`: the currency of the integer minor units. */
  currency: CurrencyCode.optional(),
  cadence: Cadence.optional(),
  product: ProductDescriptor.optional(),
  model: ModelDescriptor.optional(),
};

/** The units each reading index name may be held in: a name keeps its meaning (`rainfall_mm` is in mm),
 *  and `index` holds any finite value of a name that is a score rather than a measure. */
export const UNITS_OF_INDEX: Readonly<Record<ReadingIndex, readonly SourceUnit[]>> = {
  rainfall_mm: ['mm'],
  ndvi: ['ndvi', 'index'],
  wind_speed_ms: ['m_s'],
  tmin_c: ['degC'],
  tmax_c: ['degC'],
  relative_humidity_pct: ['pct'],
  water_balance_mm: ['index'],
  area_yield_t_ha: ['t_ha'],
  loss_factor: ['fraction', 'index', 'minor', 'head', 'count'],
  tmax_f: ['degF'],
  tmin_f: ['degF'],
  tmean_c: ['degC'],
  predicted_mortality_pct: ['pct'],
  forage_index: ['index'],
  modelled_loss_minor: ['minor'],
  area_yield_bu_ac: ['bu_ac'],
};

export interface UnitBounds {
  readonly min: number;
  /** Per day of the period for `mm` (a dekad may hold ten days of rain), else per reading. */
  readonly max: number;
  readonly perPeriodDay: boolean;
  readonly integer: boolean;
  /** Decimal places a value keeps: file values are rounded to them once, half up. */
  readonly decimals: number;
}

const bounds = (min: number, max: number, more: Partial<UnitBounds> = {}): UnitBounds => ({
  min,
  max,
  perPeriodDay: false,
  integer: false,
  decimals: 6,
  ...more,
});

/** INDEX-DATA.md §1 "Bounds per unit". */
export const UNIT_BOUNDS: Readonly<Record<SourceUnit, UnitBounds>> = {
  mm: bounds(0, 2000, { perPeriodDay: true }),
  degC: bounds(-90, 70),
  degF: bounds(-130, 160),
  m_s: bounds(0, 120),
  pct: bounds(0, 100),
  ndvi: bounds(-1, 1),
  fraction: bounds(0, 1, { decimals: 9 }),
  t_ha: bounds(0, 100),
  bu_ac: bounds(0, 1000),
  kg_ha: bounds(0, 100_000),
  head: bounds(0, Number.MAX_SAFE_INTEGER, { integer: true, decimals: 0 }),
  count: bounds(0, Number.MAX_SAFE_INTEGER, { integer: true, decimals: 0 }),
  index: bounds(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, { decimals: 9 }),
  minor: bounds(0, Number.MAX_SAFE_INTEGER, { integer: true, decimals: 0 }),
};

/** Registration rules of the descriptors, shared by every kind of source. */
export const checkSourceDescriptors = (
  request: { index: ReadingIndex; unit?: SourceUnit | undefined; currency?: string | undefined },
  context: z.RefinementCtx,
): void => {
  if (request.unit !== undefined && !UNITS_OF_INDEX[request.index].includes(request.unit)) {
    context.addIssue({
      code: 'custom',
      path: ['unit'],
      message: `${request.index} is held in ${UNITS_OF_INDEX[request.index].join(' or ')}`,
    });
  }
  if ((request.unit === 'minor') !== (request.currency !== undefined)) {
    context.addIssue({ code: 'custom', path: ['currency'], message: 'is given exactly when the unit is minor' });
  }
};

import { minorUnitExponent } from '../currency';
import { z } from '../zod';

/** Digits after the decimal point of a JSON number as written (1e-7 has 7, 12.50 arrives as 12.5). */
export const decimalPlaces = (value: number): number => {
  const [mantissa = '', exponent = '0'] = Math.abs(value).toString().split('e');
  const fraction = mantissa.split('.')[1] ?? '';
  return Math.max(0, fraction.length - Number(exponent));
};

// Below this, doubles near value × 10^places lie closer together than 1, so the nearest integer is exact.
const FINE_SPACING_LIMIT = 2 ** 52;

/** Whether a JSON number has at most `places` decimals, as `decimalPlaces` counts them. The usual answer
 *  without the string: when the nearest integer to value × 10^places divides back to exactly value, a
 *  decimal of `places` places reads as this double, so its shortest form has no more (a term sheet holds
 *  a hundred figures, checked on every read of an event that freezes one). */
export const hasAtMostDecimals = (value: number, places: number): boolean => {
  const scale = 10 ** places;
  const scaled = Math.round(value * scale);
  if (Math.abs(scaled) < FINE_SPACING_LIMIT && scaled / scale === value) return true;
  return decimalPlaces(value) <= places;
};

/** The largest sum insured in major units: times 10^4 (the widest minor unit, CLF) it stays an exact integer. */
export const MAX_SUM_INSURED = 10_000_000_000;

/** sum_insured on the wire: major units of the currency, e.g. 1234.56 USD. How many decimals the
 *  currency allows is checked once the currency is known (see `amountFitsCurrency`). */
export const SumInsured = z
  .number()
  .positive({ message: 'must be greater than 0' })
  .max(MAX_SUM_INSURED, { message: `must be at most ${MAX_SUM_INSURED}` })
  .refine((value) => decimalPlaces(value) <= 4, { message: 'must have at most 4 decimals' })
  .openapi({ example: 25000 });

/** Acres, hectares, livestock units or head a policy insures per exposure unit: at most 6 decimals. */
export const ExposureUnits = z
  .number()
  .positive({ message: 'must be greater than 0' })
  .max(1_000_000_000, { message: 'must be at most 1000000000' })
  .refine((value) => decimalPlaces(value) <= 6, { message: 'must have at most 6 decimals' })
  .openapi({ example: 100 });

export const amountFitsCurrency = (amount: number, currency: string): boolean =>
  decimalPlaces(amount) <= minorUnitExponent(currency);

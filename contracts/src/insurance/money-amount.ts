import { minorUnitExponent } from '../currency';
import { z } from '../zod';

/** Digits after the decimal point of a JSON number as written (1e-7 has 7, 12.50 arrives as 12.5). */
export const decimalPlaces = (value: number): number => {
  const [mantissa = '', exponent = '0'] = Math.abs(value).toString().split('e');
  const fraction = mantissa.split('.')[1] ?? '';
  return Math.max(0, fraction.length - Number(exponent));
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

export const amountFitsCurrency = (amount: number, currency: string): boolean =>
  decimalPlaces(amount) <= minorUnitExponent(currency);

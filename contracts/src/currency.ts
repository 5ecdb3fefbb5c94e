import { ISO_4217_MINOR_UNITS } from './iso-4217';
import { z } from './zod';

/** An active ISO 4217 code in the project's own table: never the runtime's ICU, whose list changes with
 *  the Node version (it refused CLF and UYW and accepted the withdrawn HRK and SLL). */
export const isIsoCurrency = (code: string): boolean => Object.hasOwn(ISO_4217_MINOR_UNITS, code);

/** Every active ISO 4217 code of the table. */
export const ACTIVE_CURRENCIES: readonly string[] = Object.keys(ISO_4217_MINOR_UNITS);

// Before the table, validation used ICU and every code but a few listed exceptions had 2 decimals, so a
// record written then in a code since withdrawn (HRK, SLL, ZWL, CUC, ANG) was written with 2: it still
// reads that way. New amounts are only ever accepted in an active code (`isIsoCurrency`).
const EXPONENT_OF_RECORDS_BEFORE_THE_TABLE = 2;

/** Digits after the decimal point of the currency's minor unit (USD 2, JPY 0, KWD 3, CLF 4). */
export const minorUnitExponent = (code: string): number =>
  isIsoCurrency(code) ? ISO_4217_MINOR_UNITS[code]! : EXPONENT_OF_RECORDS_BEFORE_THE_TABLE;

export const CurrencyCode = z
  .string()
  .refine(isIsoCurrency, { message: 'must be an active ISO 4217 currency code in upper case, such as USD or KES' })
  .openapi({ example: 'USD' });

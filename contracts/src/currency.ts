import { z } from './zod';

// ISO 4217 codes as this Node's ICU knows them, and the currencies whose minor unit is not 1/100.
const ISO_CODES = new Set(Intl.supportedValuesOf('currency'));

const MINOR_UNIT_EXPONENT_EXCEPTIONS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

export const isIsoCurrency = (code: string): boolean => /^[A-Z]{3}$/.test(code) && ISO_CODES.has(code);

/** Digits after the decimal point of the currency's minor unit (USD 2, JPY 0, KWD 3). */
export const minorUnitExponent = (code: string): number => MINOR_UNIT_EXPONENT_EXCEPTIONS[code] ?? 2;

export const CurrencyCode = z
  .string()
  .refine(isIsoCurrency, { message: 'must be an ISO 4217 currency code in upper case, such as USD or KES' })
  .openapi({ example: 'USD' });

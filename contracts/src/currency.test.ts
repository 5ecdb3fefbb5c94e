import { describe, expect, it } from 'vitest';
import { CurrencyCode, isIsoCurrency, minorUnitExponent } from './currency';
import { QuoteRequest } from './insurance/quote';

const quote = { farm_id: 'farm-1', field_id: 'north', perils: ['flood'] };

describe('currencies from the project’s own ISO 4217 table', () => {
  it('accepts CLF and UYW with 4 decimals, which the runtime’s ICU refused', () => {
    for (const currency of ['CLF', 'UYW']) {
      expect(minorUnitExponent(currency)).toBe(4);
      expect(QuoteRequest.safeParse({ ...quote, currency, sum_insured: 1234.5678 }).success).toBe(true);
      expect(QuoteRequest.safeParse({ ...quote, currency, sum_insured: 1234.56789 }).success).toBe(false);
    }
  });

  it('refuses withdrawn codes the runtime’s ICU accepted, and takes their successors', () => {
    for (const withdrawn of ['HRK', 'SLL', 'ZWL', 'CUC', 'ANG']) {
      expect(CurrencyCode.safeParse(withdrawn).success).toBe(false);
    }
    for (const successor of ['SLE', 'ZWG', 'XCG', 'VED']) expect(isIsoCurrency(successor)).toBe(true);
  });

  it('knows each minor unit: JPY and KRW 0, USD and KES 2, the dinars 3', () => {
    expect(['JPY', 'KRW', 'CLP', 'UYI', 'XOF'].map(minorUnitExponent)).toEqual([0, 0, 0, 0, 0]);
    expect(['USD', 'KES', 'EUR', 'SLE'].map(minorUnitExponent)).toEqual([2, 2, 2, 2]);
    expect(['BHD', 'KWD', 'JOD', 'OMR', 'TND', 'LYD', 'IQD'].map(minorUnitExponent)).toEqual([3, 3, 3, 3, 3, 3, 3]);
    expect(QuoteRequest.safeParse({ ...quote, currency: 'BHD', sum_insured: 10.125 }).success).toBe(true);
    expect(QuoteRequest.safeParse({ ...quote, currency: 'JPY', sum_insured: 10.5 }).success).toBe(false);
  });

  it('refuses what has no minor unit, lower case and made-up codes', () => {
    for (const code of ['XAU', 'XXX', 'XTS', 'usd', 'ABC', 'toString', '']) {
      expect(CurrencyCode.safeParse(code).success).toBe(false);
    }
  });

  it('reads an amount recorded before the table in a code since withdrawn with the 2 decimals it was written with', () => {
    expect(minorUnitExponent('HRK')).toBe(2);
  });
});

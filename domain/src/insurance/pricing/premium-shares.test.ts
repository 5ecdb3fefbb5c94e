import { type TermSheet, TermSheet as TermSheetSchema } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { PRF_JAN_FEB_SHEET } from '../../testing/example-sheets';
import type { ProductTerms } from '../term-sheet/product';
import { validateTermSheet } from '../term-sheet/validate';
import { priceQuote } from './pricing';

// TERM-SHEETS.md §5: a published rate (`fixed_rate`) and who pays the premium (`premium_shares`), H6 from
// USDA RMA's figures for PRF grid 27663 — 1 acre at 18.36 USD, rate 0.2252, the farmer paying 49 %.

const prf = (pricing: TermSheet['pricing']): ProductTerms => ({
  ref: { product_id: 'prf-27663', version: 1, digest: `sha256:${'0'.repeat(64)}` },
  sheet: { ...PRF_JAN_FEB_SHEET, schema: 'cropcover.term-sheet/2', ...(pricing === undefined ? {} : { pricing }) },
});

const FARMER_FIRST = [
  { payer: 'farmer', share: 0.49 },
  { payer: 'government', share: 0.51 },
];

const priced = (product: ProductTerms, sumInsuredMinor = 1_836) =>
  priceQuote(
    {
      perils: ['drought'],
      sumInsuredMinor,
      hasIrrigation: false,
      term: { start: '2028-01-01', end: '2028-02-29' },
      today: '2027-12-01',
      history: {},
    },
    product,
  );

describe('a published rate and the premium’s payers', () => {
  it('H6: gross 4.13; the government 4.13 × 0.51 = 2.1063 → 2.11; the farmer the rest, 2.02', () => {
    const product = prf({ method: 'fixed_rate', rate: 0.2252, premium_shares: FARMER_FIRST });
    expect(validateTermSheet(product.sheet)).toEqual([]);
    const pricing = priced(product);
    expect(pricing.premiumMinor).toBe(413);
    expect(pricing.perils).toEqual([
      expect.objectContaining({ method: 'fixed_rate', seasonsUsed: 0, premiumMinor: 413 }),
    ]);
    expect(pricing.payers).toEqual([
      { payer: 'farmer', share: 0.49, premiumMinor: 202 },
      { payer: 'government', share: 0.51, premiumMinor: 211 },
    ]);
  });

  it('each: every share of the exact premium rounded on its own, the premium their sum', () => {
    // 18.36 × 0.2252 = 4.134672: × 0.49 = 2.0259893 → 2.03, × 0.51 = 2.1086827 → 2.11, premium 4.14.
    const pricing = priced(
      prf({ method: 'fixed_rate', rate: 0.2252, premium_shares: FARMER_FIRST, share_rounding: 'each' }),
    );
    expect(pricing.payers?.map((payer) => payer.premiumMinor)).toEqual([203, 211]);
    expect(pricing.premiumMinor).toBe(414);
  });

  it('shares that do not add up to 1 are refused: premium_shares_sum', () => {
    const product = prf({
      method: 'fixed_rate',
      rate: 0.2252,
      premium_shares: [
        { payer: 'farmer', share: 0.49 },
        { payer: 'government', share: 0.5 },
      ],
    });
    expect(validateTermSheet(product.sheet)).toEqual([
      expect.objectContaining({ path: 'pricing.premium_shares', code: 'premium_shares_sum' }),
    ]);
  });

  it('is version 2 only, and a fixed_rate needs its rate', () => {
    const v1 = { ...prf({ method: 'fixed_rate', rate: 0.2252 }).sheet, schema: 'cropcover.term-sheet/1' };
    const parsed = TermSheetSchema.safeParse(v1);
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual(
      expect.arrayContaining(['pricing.method', 'pricing.rate']),
    );
    const noRate = TermSheetSchema.safeParse(prf({ method: 'fixed_rate' }).sheet);
    expect(noRate.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['pricing.rate']);
  });
});

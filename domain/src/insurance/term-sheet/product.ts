import type { Cover, Peril, PolicyProduct, TermSheet } from '@cropcover/contracts';
import { DomainError } from '../../domain-error';

/** A version of a product as quote and issue use it: what the policy will name, and the sheet it freezes. */
export interface ProductTerms {
  readonly ref: PolicyProduct;
  readonly sheet: TermSheet;
}

/** The sheet's cover of a peril; undefined when the sheet has none. */
export const coverOf = (sheet: TermSheet, peril: Peril): Cover | undefined =>
  sheet.covers.find((cover) => cover.peril === peril);

/** The sheet's cover of a peril a request names: 422 `peril_not_in_product` when the sheet has none. */
export const productCover = (sheet: TermSheet, peril: Peril): Cover => {
  const cover = coverOf(sheet, peril);
  if (cover === undefined) {
    throw new DomainError(
      'rejected',
      'peril_not_in_product',
      `the product covers ${sheet.covers.map((candidate) => candidate.peril).join(', ')}, not ${peril}`,
    );
  }
  return cover;
};

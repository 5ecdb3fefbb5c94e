import type { SheetAmounts, TermSheet } from '@cropcover/contracts';
import { MILLIONTHS, millionthsOf } from '../money/decimal';
import { type MoneyRounding, roundedMinorUnits } from '../money/payout';

// The money of a sheet. Its amounts are shares of the policy's sum insured (units `share` and
// `per_exposure_unit`, whose sum insured is the policy's exposure units × a value) or minor units
// of a basis sum insured that the policy's scales pro rata (unit `minor`: 2 ha at the basis of one pay
// double). Inside the engine an amount is a whole number of the sheet's units — millionths of the sum
// insured, or minor units of the basis — and what a cover pays is an exact share of the sum insured, so
// the policy's money is that share × its sum insured, rounded once.

/** A sheet amount (a limit, a per-unit, a step's pay) in the sheet's units. */
export const amountUnitsOf =
  (amounts: SheetAmounts) =>
  (amount: number): bigint =>
    amounts.unit === 'minor' ? BigInt(amount) : millionthsOf(amount);

/** The sheet's units in the whole sum insured. */
export const unitsOfSumInsured = (amounts: SheetAmounts): bigint =>
  amounts.unit === 'minor' ? BigInt(amounts.sum_insured_minor) : MILLIONTHS;

/** An exact share of the policy's sum insured, numerator / denominator (positive), ≥ 0. */
export interface SumInsuredShare {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

export const NO_SHARE: SumInsuredShare = { numerator: 0n, denominator: 1n };

export const sheetRounding = (sheet: Pick<TermSheet, 'rounding'>): MoneyRounding => sheet.rounding ?? 'half_up';

/** A share of the sum insured in minor units, rounded as the sheet rounds money. */
export const minorUnitsOfShare = (share: SumInsuredShare, sumInsuredMinor: number, rounding: MoneyRounding): number =>
  roundedMinorUnits(share.numerator * BigInt(sumInsuredMinor), share.denominator, rounding);

/** The most a policy pays across its covers: ⌊sheet limit × sum insured⌋ (the whole sum insured when the
 *  sheet names no limit). */
export const sheetLimitMinor = (sheet: Pick<TermSheet, 'limit' | 'amounts'>, sumInsuredMinor: number): number =>
  sheet.limit === undefined
    ? sumInsuredMinor
    : minorUnitsOfShare(
        { numerator: amountUnitsOf(sheet.amounts)(sheet.limit), denominator: unitsOfSumInsured(sheet.amounts) },
        sumInsuredMinor,
        'down',
      );

import { amountFitsCurrency, decimalPlaces } from '../insurance/money-amount';
import { z } from '../zod';

/** The largest capacity or treaty amount in major units: × 10^4 (the widest minor unit, CLF) it stays
 *  an exact integer far below 2^53, with room for the sums of many such limits. */
export const MAX_LIMIT_AMOUNT = 100_000_000_000;

/** A capacity, aggregate limit or treaty amount on the wire: major units of the programme's currency,
 *  like every money field of the API. 0 is a limit too (nothing may be written there). How many decimals
 *  the currency allows is checked once the currency is known (`limitAmountIssues`). */
export const LimitAmount = z
  .number()
  .nonnegative({ message: 'must be 0 or more' })
  .max(MAX_LIMIT_AMOUNT, { message: `must be at most ${MAX_LIMIT_AMOUNT}` })
  .refine((value) => decimalPlaces(value) <= 4, { message: 'must have at most 4 decimals' })
  .openapi({ example: 5000000 });

/** A ratio (a share of premium, a cession rate) with at most 6 decimals, read digit by digit. */
export const Ratio = (max: number) =>
  z
    .number()
    .nonnegative({ message: 'must be 0 or more' })
    .max(max, { message: `must be at most ${max}` })
    .refine((value) => decimalPlaces(value) <= 6, { message: 'must have at most 6 decimals' });

/** One issue per amount (given as path and value) with more decimals than the currency has. */
export const addCurrencyDecimalIssues = (
  amounts: readonly { readonly path: readonly (string | number)[]; readonly amount: number }[],
  currency: string,
  context: z.RefinementCtx,
): void => {
  for (const { path, amount } of amounts) {
    if (!amountFitsCurrency(amount, currency)) {
      context.addIssue({ code: 'custom', path: [...path], message: `has more decimals than ${currency} allows` });
    }
  }
};

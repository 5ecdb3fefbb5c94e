import { decimalOfMillionths, millionthsOf } from '../../insurance/money/decimal';

/** A unit's value from its cells' values (INDEX-DATA §2.4): their mean with equal weights, summed exactly
 *  in millionths and rounded once to 6 decimals, half up. Undefined when no cell has a value. */
export const unitMean = (cellValues: readonly number[]): number | undefined => {
  if (cellValues.length === 0) return undefined;
  const sum = cellValues.reduce((total, value) => total + millionthsOf(value), 0n);
  return decimalOfMillionths(sum, BigInt(cellValues.length));
};

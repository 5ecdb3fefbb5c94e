// Exact decimal arithmetic for JSON numbers. A double's shortest string (what JSON.stringify writes and
// a client most likely typed) is read digit by digit into a scaled integer, so 0.1 + 0.2 style error
// never enters a sum, a threshold comparison or an amount of money.
//
// Rounding everywhere is half-up, ties away from zero: the commercial rule an insured expects on a
// premium or a payout, and the same rule for index values so one rule is documented, not two.

interface DecimalDigits {
  readonly negative: boolean;
  /** All significant digits without the point. */
  readonly digits: string;
  /** Digits after the point: value = digits × 10^-places (may be negative for 1e21). */
  readonly places: number;
}

const digitsOf = (value: number): DecimalDigits => {
  if (!Number.isFinite(value)) throw new RangeError(`${value} is not a finite number`);
  const [mantissa = '0', exponent = '0'] = Math.abs(value).toString().split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  return { negative: value < 0, digits: `${whole}${fraction}`, places: fraction.length - Number(exponent) };
};

const pow10 = (exponent: number): bigint => 10n ** BigInt(exponent);

/** Index values, levels, figures of a sheet, severities, coverage fractions and rates all carry 6
 *  decimals (SPEC §7): finer than any sensor reports, coarse enough to stay exact. The one scale. */
export const DECIMAL_PLACES = 6;
/** One unit in millionths. */
export const MILLIONTHS = pow10(DECIMAL_PLACES);

/** `value × 10^places` when that is a whole number, else undefined (the value has more decimals). */
export const scaleExact = (value: number, places: number): bigint | undefined => {
  const { negative, digits, places: own } = digitsOf(value);
  // A double's shortest form has no trailing zeros after the point, so more places means more precision.
  if (own > places) return undefined;
  const magnitude = BigInt(digits) * pow10(places - own);
  return negative ? -magnitude : magnitude;
};

/** `numerator / denominator` rounded half-up (ties away from zero); the denominator must be positive. */
export const divideRounded = (numerator: bigint, denominator: bigint): bigint => {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const magnitude = numerator < 0n ? -numerator : numerator;
  const rounded = (2n * magnitude + denominator) / (2n * denominator);
  return numerator < 0n ? -rounded : rounded;
};

// While value × 10^places stays below this, doubles near value lie closer together than 10^-places (for
// 6 places: up to ~4.5e9), so at most one number of `places` decimals rounds to a given double.
const FINE_SPACING_LIMIT = 2 ** 52;

/** `value × 10^places` rounded half-up to a whole number. */
export const scaleRounded = (value: number, places: number): bigint => {
  // Most readings have no more than `places` decimals: then the nearest integer to value × 10^places
  // divides back to exactly value (IEEE division is correctly rounded), it is the only such decimal,
  // and it is what the digit-by-digit reading below would give, without its string work.
  const scale = 10 ** places;
  const size = Math.abs(value);
  const scaled = Math.round(size * scale);
  if (scaled < FINE_SPACING_LIMIT && scaled / scale === size) return BigInt(value < 0 ? -scaled : scaled);
  const { negative, digits, places: own } = digitsOf(value);
  const magnitude =
    own <= places ? BigInt(digits) * pow10(places - own) : divideRounded(BigInt(digits), pow10(own - places));
  return negative ? -magnitude : magnitude;
};

/** A figure of a sheet or an issued policy (a level, a rate, a coverage) in millionths. Such figures were
 *  checked to have at most 6 decimals when they were written, so more is a broken invariant. */
export const millionthsOf = (figure: number): bigint => {
  const units = scaleExact(figure, DECIMAL_PLACES);
  if (units === undefined) throw new RangeError(`${figure} has more than ${DECIMAL_PLACES} decimals`);
  return units;
};

/** `numerator / denominator` millionths rounded half-up to the 6-decimal number the API shows. */
export const decimalOfMillionths = (numerator: bigint, denominator = 1n): number =>
  unscale(denominator === 1n ? numerator : divideRounded(numerator, denominator), DECIMAL_PLACES);

/** The number `scaled × 10^-places`. IEEE division of two exact integers is correctly rounded, so this
 *  is the double nearest the decimal and prints as that decimal. */
export const unscale = (scaled: bigint, places: number): number => Number(scaled) / 10 ** places;

/** The smaller of two scaled integers (Math.min does not take bigint). */
export const smallerOf = (a: bigint, b: bigint): bigint => (a < b ? a : b);

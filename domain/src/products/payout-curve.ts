import type { Cover, PayoutCurve, PayoutCurvePoint, PayoutCurveRequest, TermSheet } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import type { CoverTerm } from '../insurance/calendar/cover-term';
import { decimalOfMillionths, divideRounded, millionthsOf } from '../insurance/money/decimal';
import { toMajorUnits } from '../insurance/money/minor-units';
import { payoutFor } from '../insurance/money/payout';
import { severityFraction, severityPpmOfExact } from '../insurance/money/severity';
import { type CoverAtIndex, coverAtIndex } from '../insurance/term-sheet/evaluate-cover';
import { readsPercentiles } from '../insurance/term-sheet/payout-map';
import { productCover } from '../insurance/term-sheet/product';
import {
  minorUnitsOfShare,
  type SumInsuredShare,
  sheetLimitMinor,
  sheetRounding,
} from '../insurance/term-sheet/sheet-money';
import { resolveDate } from '../insurance/term-sheet/windows';
import {
  defaultQuoteTerm,
  refuseTermOffSeason,
  refuseWindowsOutsideTerm,
} from '../insurance/underwriting/priced-cover';
import { refuseInvalidSheet } from './register-product-version';

// The payout curve (TERM-SHEETS.md §5.1, docs/term-sheets.md "The payout curve"): what a cover pays at
// each index value of a range, read through the one payout engine (`coverAtIndex`: each phase's map on its
// window, the cover's limit over their sum) and the one money rounding. Stores nothing.

/** The index values of the curve in millionths: `points` evenly from `from` to `to`, both included, each
 *  rounded half-up to 6 decimals (the index's precision), so every value shown is the one evaluated. */
const indexValues = (from: number, to: number, points: number): bigint[] => {
  const [start, end] = [millionthsOf(from), millionthsOf(to)];
  const steps = BigInt(points - 1);
  return Array.from({ length: points }, (_, at) => start + divideRounded(BigInt(at) * (end - start), steps));
};

/** The term a quote without one would price, or the one asked for: the sheet's season in one year, else
 *  one holding the cover's windows (422 as quote answers). */
const curveTerm = (request: PayoutCurveRequest, today: string): CoverTerm => {
  if (request.term_start === undefined || request.term_end === undefined) {
    return defaultQuoteTerm(today, { sheet: request.sheet });
  }
  const term = { start: request.term_start, end: request.term_end };
  refuseTermOffSeason(request.sheet, term);
  return term;
};

/** Windows anchored on sowing resolve on the earliest sowing date (the first day of the sowing range). */
const earliestSowing = (cover: Cover, term: CoverTerm): string | undefined =>
  cover.sowing === undefined ? undefined : resolveDate(cover.sowing.from, term, undefined);

/** A share of the sheet's basis sum insured as money: present only when the sheet's amounts are money. */
const moneyOf = (sheet: TermSheet) => {
  const { amounts } = sheet;
  if (amounts.unit !== 'minor') return undefined;
  const rounding = sheetRounding(sheet);
  const limitMinor = sheetLimitMinor(sheet, amounts.sum_insured_minor);
  const minorOf = (share: SumInsuredShare) => minorUnitsOfShare(share, amounts.sum_insured_minor, rounding);
  const major = (minor: number) => toMajorUnits(minor, amounts.currency);
  return {
    currency: amounts.currency,
    sumInsured: major(amounts.sum_insured_minor),
    amountDue: (share: SumInsuredShare) => major(minorOf(share)),
    payout: (share: SumInsuredShare) => major(payoutFor(minorOf(share), limitMinor, 0, 0)),
  };
};

const pointOf = (value: bigint, at: CoverAtIndex, money: ReturnType<typeof moneyOf>): PayoutCurvePoint => ({
  index_value: decimalOfMillionths(value),
  phases: at.phases.map((phase) => ({
    phase: phase.phase.id,
    severity: severityFraction(severityPpmOfExact(phase.severity)),
    ...(money === undefined ? {} : { amount_due: money.amountDue(phase.share) }),
  })),
  cover: {
    severity: severityFraction(at.severityPpm),
    ...(money === undefined ? {} : { amount_due: money.amountDue(at.share), payout: money.payout(at.share) }),
  },
});

/** What the cover of `peril` pays at each index value from `from` to `to`: the phase asked for alone (the
 *  cover then pays it within the cover's limit), or every phase reading the same value (the cover pays
 *  their sum within its limit). The sheet is validated as `POST /insurance/products/validate` does. */
export const payoutCurve = (request: PayoutCurveRequest, today: string): PayoutCurve => {
  refuseInvalidSheet(request.sheet);
  const { sheet, peril, phase } = request;
  const cover = productCover(sheet, peril);
  const term = curveTerm(request, today);
  refuseWindowsOutsideTerm(sheet, [peril], term);
  const atPercentile = cover.phases.find(
    (each) => (phase === undefined || each.id === phase) && readsPercentiles(each.payout),
  );
  if (atPercentile !== undefined) {
    throw new DomainError(
      'rejected',
      'no_climatology',
      `phase ${atPercentile.id}'s levels are percentiles of a location's climatology: a sheet alone has none ` +
        '(backtest the product at its locations instead)',
    );
  }
  const at = coverAtIndex({
    cover,
    amounts: sheet.amounts,
    term,
    sowingDate: earliestSowing(cover, term),
    phaseIds: new Set(phase === undefined ? cover.phases.map((each) => each.id) : [phase]),
  });
  const money = moneyOf(sheet);
  return {
    peril,
    index: cover.index,
    ...(phase === undefined ? {} : { phase }),
    term_start: term.start,
    term_end: term.end,
    ...(money === undefined ? {} : { currency: money.currency, sum_insured: money.sumInsured }),
    points: indexValues(request.from, request.to, request.points).map((value) =>
      pointOf(value, at({ numerator: value, denominator: 1n }), money),
    ),
  };
};

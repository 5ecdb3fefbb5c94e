import type {
  CoverSeason,
  LocationBacktest,
  LocationSeason,
  LocationStatistics,
  MonthDay,
  Peril,
  TermSheet,
} from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import { dayNumber } from '../insurance/calendar/calendar-date';
import type { CoverTerm } from '../insurance/calendar/cover-term';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import { type SeasonReadings, seasonsWithReadings } from '../insurance/index-data/season-readings';
import { decimalOfMillionths, MILLIONTHS, millionthsOf } from '../insurance/money/decimal';
import { toMajorUnits } from '../insurance/money/minor-units';
import { payoutFor, roundedMinorUnits } from '../insurance/money/payout';
import {
  addRationals,
  compareRationals,
  displayedDecimal,
  ONE,
  type Rational,
  rationalOf,
  smallerRational,
  ZERO,
} from '../insurance/money/rational';
import { checkClimatologyBlocks } from '../insurance/term-sheet/climatology-blocks';
import {
  type CoverEvaluationSpec,
  deepestSeasonShare,
  evaluateCover,
  seasonShare,
} from '../insurance/term-sheet/evaluate-cover';
import type { SeriesFrame } from '../insurance/term-sheet/index-pipeline';
import { productCover } from '../insurance/term-sheet/product';
import { minorUnitsOfShare, sheetLimitMinor, sheetRounding } from '../insurance/term-sheet/sheet-money';
import { checkSourcePeriods } from '../insurance/term-sheet/source-periods';
import { seasonStartingIn, seasonsBackOf } from '../insurance/term-sheet/windows';
import { coverFigures } from '../policies/cover-figures';
import { basisRisk, type PayoutAndLoss } from './basis-risk';

// The product backtest (TERM-SHEETS.md §5.1, docs/term-sheets.md "Backtesting a product"): what a sheet
// would have paid at one location in each past season, by the engine that pays policies and prices them —
// seasons cut as the burning cost cuts them (`seasonsWithReadings`, `seasonsBackOf`), each cover's amount
// the most it was due on any day of the season (`seasonShare`, the burning cost's loss), its index as a
// policy's backtest shows it at the season's end (`evaluateCover`) — and the location's statistics.

export interface BacktestYears {
  readonly from: number;
  readonly to: number;
}

export interface LocationBacktestSpec {
  readonly sourceId: string;
  readonly location: string;
  readonly sheet: TermSheet;
  readonly perils: readonly Peril[];
  /** The sheet's season, or the one the request gave a sheet without one. */
  readonly season: { readonly from: MonthDay; readonly to: MonthDay };
  readonly years: BacktestYears;
  readonly today: string;
  /** The location's readings of its source's index over the seasons, in any order. */
  readonly readings: readonly IndexObservation[];
  /** Each cover's source at this location: its cadence, and the climatology it froze if it reads one. */
  readonly dataSources?: Partial<Record<Peril, SeriesFrame>>;
  /** Losses observed, by season, with the threshold above which a loss should have paid. */
  readonly outcomes?: { readonly threshold: Rational; readonly losses: ReadonlyMap<number, Rational> };
}

export interface LocationBacktestResult {
  readonly view: LocationBacktest;
  /** The seasons counted that have an observed loss, for the basis risk over every location. */
  readonly pairs: readonly PayoutAndLoss[];
}

/** The money of a sheet whose amounts are minor units of a basis sum insured; none for shares. */
interface BasisMoney {
  readonly currency: string;
  readonly sumInsuredMinor: number;
  readonly limitMinor: number;
  readonly rounding: 'half_up' | 'down';
}

const moneyOf = (sheet: TermSheet): BasisMoney | undefined =>
  sheet.amounts.unit === 'minor'
    ? {
        currency: sheet.amounts.currency,
        sumInsuredMinor: sheet.amounts.sum_insured_minor,
        limitMinor: sheetLimitMinor(sheet, sheet.amounts.sum_insured_minor),
        rounding: sheetRounding(sheet),
      }
    : undefined;

/** The dates a backtest reads: the first season's first day to the last season's last. */
export const backtestReadingRange = (
  season: { readonly from: MonthDay; readonly to: MonthDay },
  years: BacktestYears,
): { readonly from: string; readonly to: string } => ({
  from: seasonStartingIn(season, years.from).start,
  to: seasonStartingIn(season, years.to).end,
});

/** The season starting in each year asked for, with its readings (none when it has none). */
const seasonsOf = (spec: LocationBacktestSpec): SeasonReadings[] => {
  const after = seasonStartingIn(spec.season, spec.years.to + 1);
  const cut = seasonsWithReadings(after, spec.today, spec.readings, seasonsBackOf({ season: spec.season }, after));
  const byYear = new Map(cut.map((season) => [Number(season.season.start.slice(0, 4)), season]));
  const seasons: SeasonReadings[] = [];
  for (let year = spec.years.from; year <= spec.years.to; year += 1) {
    const season: CoverTerm = seasonStartingIn(spec.season, year);
    seasons.push(
      byYear.get(year) ?? { season, startDay: dayNumber(season.start), endDay: dayNumber(season.end), readings: [] },
    );
  }
  return seasons;
};

interface CoverInSeason {
  readonly view: CoverSeason;
  readonly complete: boolean;
  readonly due: Rational;
}

const coverInSeason = (spec: CoverEvaluationSpec, money: BasisMoney | undefined): CoverInSeason => {
  const counted = seasonShare(spec);
  const due = counted ?? deepestSeasonShare(spec);
  const outcome = evaluateCover(spec, spec.term.end);
  const figures = coverFigures(outcome, spec.term.end);
  let read = 0;
  let days = 0;
  for (const { coverage } of outcome.phases) {
    read += coverage?.daysWithReading ?? 0;
    days += coverage?.daysInWindow ?? 0;
  }
  const status = counted !== undefined ? 'complete' : read > 0 ? 'incomplete_data' : 'no_data';
  return {
    complete: counted !== undefined,
    due,
    view: {
      peril: spec.cover.peril,
      status,
      coverage: days === 0 ? 0 : decimalOfMillionths(BigInt(read) * MILLIONTHS, BigInt(days)),
      phase: figures?.phase ?? null,
      index: figures?.observedValue ?? null,
      amount_due_share: displayedDecimal(due),
      ...(money === undefined
        ? {}
        : {
            amount_due: toMajorUnits(minorUnitsOfShare(due, money.sumInsuredMinor, money.rounding), money.currency),
          }),
    },
  };
};

interface SeasonOutcome {
  readonly year: number;
  readonly counted: boolean;
  /** What a policy of the basis paid that season: Σ covers within the sheet's limit, a share of its SI. */
  readonly payout: Rational;
  readonly payoutMinor: number | undefined;
  readonly view: LocationSeason;
}

/** The season's payout: as a policy pays it (`payoutFor`, cover by cover in the sheet's order within its
 *  limit, each rounded once) for money sheets; the exact sum within the limit for shares. */
const seasonPayout = (
  sheet: TermSheet,
  covers: readonly CoverInSeason[],
  money: BasisMoney | undefined,
): { share: Rational; minor: number | undefined } => {
  if (money === undefined) {
    const limit = sheet.limit === undefined ? ONE : rationalOf(millionthsOf(sheet.limit), MILLIONTHS);
    return {
      share: smallerRational(
        limit,
        covers.reduce((sum, cover) => addRationals(sum, cover.due), ZERO),
      ),
      minor: undefined,
    };
  }
  let paid = 0;
  for (const cover of covers) {
    paid += payoutFor(minorUnitsOfShare(cover.due, money.sumInsuredMinor, money.rounding), money.limitMinor, 0, paid);
  }
  return { share: rationalOf(BigInt(paid), BigInt(money.sumInsuredMinor)), minor: paid };
};

const majorOf = (money: BasisMoney | undefined, minor: number | undefined) =>
  money === undefined || minor === undefined ? {} : { payout: toMajorUnits(minor, money.currency) };

const seasonOutcome = (spec: LocationBacktestSpec, season: SeasonReadings, money: BasisMoney | undefined) => {
  const covers = spec.sheet.covers
    .filter((cover) => spec.perils.includes(cover.peril))
    .map((cover) =>
      coverInSeason(
        {
          cover,
          amounts: spec.sheet.amounts,
          term: season.season,
          readings: season.readings,
          source: spec.dataSources?.[cover.peril],
        },
        money,
      ),
    );
  const { share, minor } = seasonPayout(spec.sheet, covers, money);
  const counted = covers.every((cover) => cover.complete);
  const year = Number(season.season.start.slice(0, 4));
  return {
    year,
    counted,
    payout: share,
    payoutMinor: minor,
    view: {
      season: year,
      season_start: season.season.start,
      season_end: season.season.end,
      counted,
      payout_share: displayedDecimal(share),
      ...majorOf(money, minor),
      covers: covers.map((cover) => cover.view),
    },
  } satisfies SeasonOutcome;
};

/** Average loss cost, payout frequency and worst season over the seasons counted. */
const locationStatistics = (seasons: readonly SeasonOutcome[], money: BasisMoney | undefined): LocationStatistics => {
  const counted = seasons.filter((season) => season.counted);
  const n = BigInt(counted.length);
  if (n === 0n) {
    return {
      seasons_counted: 0,
      average_loss_cost: null,
      ...(money === undefined ? {} : { average_payout: null }),
      payout_frequency: null,
      worst_season: null,
    };
  }
  let total = ZERO;
  let totalMinor = 0n;
  let paying = 0n;
  let worst = counted[0]!;
  for (const season of counted) {
    total = addRationals(total, season.payout);
    totalMinor += BigInt(season.payoutMinor ?? 0);
    if (season.payout.numerator > 0n) paying += 1n;
    if (compareRationals(season.payout, worst.payout) > 0) worst = season;
  }
  return {
    seasons_counted: counted.length,
    average_loss_cost: displayedDecimal(rationalOf(total.numerator, total.denominator * n)),
    ...(money === undefined
      ? {}
      : { average_payout: toMajorUnits(roundedMinorUnits(totalMinor, n, 'half_up'), money.currency) }),
    payout_frequency: decimalOfMillionths(paying * MILLIONTHS, n),
    worst_season: {
      season: worst.year,
      payout_share: displayedDecimal(worst.payout),
      ...majorOf(money, worst.payoutMinor),
    },
  };
};

/** One location's seasons and statistics, and with observed losses its basis risk. */
export const backtestLocation = (spec: LocationBacktestSpec): LocationBacktestResult => {
  const refusal = locationRefusal(spec);
  if (refusal !== undefined) return { view: locationNotBacktested(spec.sourceId, spec.location, refusal), pairs: [] };
  const money = moneyOf(spec.sheet);
  const seasons = seasonsOf(spec).map((season) => seasonOutcome(spec, season, money));
  const pairs: PayoutAndLoss[] = [];
  if (spec.outcomes !== undefined) {
    for (const season of seasons) {
      const loss = spec.outcomes.losses.get(season.year);
      if (season.counted && loss !== undefined) pairs.push({ payout: season.payout, loss });
    }
  }
  return {
    view: {
      source_id: spec.sourceId,
      location: spec.location,
      status: 'evaluated',
      seasons: seasons.map((season) => season.view),
      statistics: locationStatistics(seasons, money),
      ...(spec.outcomes === undefined ? {} : { basis_risk: basisRisk(pairs, spec.outcomes.threshold) }),
    },
    pairs,
  };
};

export interface LocationSkipReason {
  readonly code: 'no_climatology' | 'climatology_period' | 'period_mismatch';
  readonly detail: string;
}

/** A location none of whose seasons can be read: a cover reads normals the location has none of, or whose
 *  periods are not its blocks. */
export const locationNotBacktested = (
  sourceId: string,
  location: string,
  reason: LocationSkipReason,
): LocationBacktest => ({
  source_id: sourceId,
  location,
  status: 'skipped',
  skip_reason: reason,
  seasons: [],
  statistics: null,
});

const SKIPPING_CODES: ReadonlySet<string> = new Set(['no_climatology', 'climatology_period', 'period_mismatch']);

/** Why the location's source cannot serve its covers, as quote would refuse it (`checkSourcePeriods`,
 *  `checkClimatologyBlocks` on the last season); undefined when it can. */
const locationRefusal = (spec: LocationBacktestSpec): LocationSkipReason | undefined => {
  const term = seasonStartingIn(spec.season, spec.years.to);
  for (const peril of spec.perils) {
    const source = spec.dataSources?.[peril];
    const cover = productCover(spec.sheet, peril);
    try {
      checkSourcePeriods(cover, term, source?.cadence, spec.location);
      if (source?.climatology !== undefined) {
        checkClimatologyBlocks(cover, term, source.climatology, spec.location, source.cadence);
      }
    } catch (error) {
      if (error instanceof DomainError && SKIPPING_CODES.has(error.code)) {
        return { code: error.code as LocationSkipReason['code'], detail: error.message };
      }
      throw error;
    }
  }
  return undefined;
};

import type { Peril } from '@cropcover/contracts';
import { earlierDate, laterDate } from '../insurance/calendar/calendar-date';
import { type CoverTerm, termYearsBack } from '../insurance/calendar/cover-term';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import { payoutFor, roundedMinorUnits } from '../insurance/money/payout';
import { type Zone, zoneKey } from '../programmes/accumulation-zone';

// The as-if backtest's core (SPEC §7 "Portfolio backtest"): what the book in force would have paid in
// each of the last N seasons, each policy's term shifted back y years on its own source and location,
// each policy rounded exactly as its own backtest. Never per policy per day: covers that read one zone with
// the same terms and the same dates (a cover group) are evaluated once per season, from one pass over the
// zone's readings, and policies with the same cover groups (a policy group) are one histogram of sums
// insured — exact per-policy rounding costs one multiplication per distinct sum insured.
//
// The cover evaluation is a parameter: whatever the product's engine is, it tells what a cover is due in
// a season per unit of sum insured, as an exact fraction (the default product: depth / span of its
// severity; a term sheet: A_c ÷ SI, which does not depend on SI). This core rounds it, caps it and adds
// it up.

/** An exact non-negative fraction. */
export interface Fraction {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

/** What a cover was due in one season, per unit of sum insured, and whether its window had complete
 *  data; or that it could not be evaluated (no data), which is incomplete and due nothing. */
export type SeasonCoverOutcome =
  | { readonly kind: 'evaluated'; readonly duePerSumInsured: Fraction; readonly complete: boolean }
  | { readonly kind: 'skipped' };

/** The one cover evaluation, as the as-if needs it: the cover's terms over `season` (its issued term
 *  shifted back whole years), as of the season's end, on the readings of its zone. */
export type EvaluateSeasonCover<Terms> = (
  terms: Terms,
  term: CoverTerm,
  season: CoverTerm,
  readings: readonly IndexObservation[],
) => SeasonCoverOutcome;

export interface AsIfCover<Terms> {
  readonly peril: Peril;
  readonly zone: Zone;
  /** The index the cover reads in its zone: one zone may hold several (a field's own readings). */
  readonly index: string;
  readonly terms: Terms;
  /** Equal for covers whose terms evaluate alike on the same readings (e.g. their canonical JSON). */
  readonly signature: string;
}

export interface AsIfPolicy<Terms> {
  readonly policyId: string;
  readonly sumInsuredMinor: number;
  readonly term: CoverTerm;
  /** Its season `years` back: the term shifted back whole years unless its product has a fixed season
   *  (`seasonsBackOf`). Covers of one signature share it. */
  readonly yearsBack?: (years: number) => CoverTerm;
  /** In the order the policy pays its covers. */
  readonly covers: readonly AsIfCover<Terms>[];
  /** The most the policy pays across covers, per unit of sum insured (floored to the minor unit); 1 for
   *  the default product (its sum insured). */
  readonly limit?: Fraction;
  /** The money rounding of each cover's amount due: half-up unless the product says down. */
  readonly rounding?: 'half_up' | 'down';
}

interface CoverGroup<Terms> {
  readonly zone: Zone;
  readonly index: string;
  readonly terms: Terms;
  readonly term: CoverTerm;
  readonly yearsBack: (years: number) => CoverTerm;
  /** Per season (index y − 1); filled when the zone's readings are read. */
  outcomes: readonly SeasonCoverOutcome[] | undefined;
}

interface PolicyGroup {
  readonly coverGroups: readonly string[];
  readonly limit: Fraction;
  readonly rounding: 'half_up' | 'down';
  /** sum insured → policies with it. */
  readonly sumsInsured: Map<number, number>;
}

export interface AsIfSeason {
  readonly yearsBack: number;
  readonly grossMinor: number;
  readonly payingZones: number;
  readonly payingPolicies: number;
  /** Sum insured of the policies with a cover skipped or on incomplete data that season. */
  readonly exposureIncompleteMinor: number;
}

export interface AsIfZone {
  readonly zone: Zone;
  /** Each policy's sum insured once. */
  readonly sumInsuredMinor: number;
  /** Per season (index y − 1): what the covers reading the zone paid. */
  readonly lossesMinor: readonly number[];
}

export interface AsIfOutcome {
  readonly policies: number;
  readonly totalSumInsuredMinor: number;
  readonly seasons: readonly AsIfSeason[];
  readonly zones: readonly AsIfZone[];
}

const seriesKey = (zone: Zone, index: string) => JSON.stringify([zoneKey(zone), index]);

const WHOLE: Fraction = { numerator: 1n, denominator: 1n };

const amountOf = (sumInsuredMinor: number, { numerator, denominator }: Fraction, rounding: 'half_up' | 'down') =>
  roundedMinorUnits(BigInt(sumInsuredMinor) * numerator, denominator, rounding);

/** The first index of a date-ordered list whose date is not before `date` (or, `after`, is after it). */
const firstIndex = (readings: readonly IndexObservation[], date: string, after: boolean): number => {
  let low = 0;
  let high = readings.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const found = readings[middle]!.date;
    if (after ? found <= date : found < date) low = middle + 1;
    else high = middle;
  }
  return low;
};

/** The readings dated within `[from, to]` of a zone's list in date order. */
const readingsBetween = (readings: readonly IndexObservation[], from: string, to: string) =>
  readings.slice(firstIndex(readings, from, false), firstIndex(readings, to, true));

export class AsIfBook<Terms> {
  private readonly coverGroups = new Map<string, CoverGroup<Terms>>();
  /** Per series read (zone and index): the cover groups reading it. */
  private readonly seriesGroups = new Map<string, { zone: Zone; index: string; coverGroups: string[] }>();
  private readonly policyGroups = new Map<string, PolicyGroup>();
  private policies = 0;

  constructor(
    policies: Iterable<AsIfPolicy<Terms>>,
    private readonly seasons: number,
    private readonly evaluate: EvaluateSeasonCover<Terms>,
  ) {
    for (const policy of policies) this.add(policy);
  }

  private add(policy: AsIfPolicy<Terms>): void {
    this.policies += 1;
    const coverGroups = policy.covers.map((cover) => {
      const series = seriesKey(cover.zone, cover.index);
      const key = JSON.stringify([series, cover.signature, policy.term.start, policy.term.end]);
      if (!this.coverGroups.has(key)) {
        this.coverGroups.set(key, {
          zone: cover.zone,
          index: cover.index,
          terms: cover.terms,
          term: policy.term,
          yearsBack: policy.yearsBack ?? ((years) => termYearsBack(policy.term, years)),
          outcomes: undefined,
        });
        const read = this.seriesGroups.get(series) ?? { zone: cover.zone, index: cover.index, coverGroups: [] };
        read.coverGroups.push(key);
        this.seriesGroups.set(series, read);
      }
      return key;
    });
    const limit = policy.limit ?? WHOLE;
    const rounding = policy.rounding ?? 'half_up';
    const key = JSON.stringify([coverGroups, String(limit.numerator), String(limit.denominator), rounding]);
    const group = this.policyGroups.get(key) ?? { coverGroups, limit, rounding, sumsInsured: new Map() };
    group.sumsInsured.set(policy.sumInsuredMinor, (group.sumsInsured.get(policy.sumInsuredMinor) ?? 0) + 1);
    this.policyGroups.set(key, group);
  }

  /** Every series (zone and index) the book reads and the dates of its readings the seasons need. */
  zonesToRead(): { readonly zone: Zone; readonly index: string; readonly from: string; readonly to: string }[] {
    return [...this.seriesGroups.values()].map(({ zone, index, coverGroups }) => {
      const groups = coverGroups.map((key) => this.coverGroups.get(key)!);
      return {
        zone,
        index,
        from: groups.map((group) => group.yearsBack(this.seasons).start).reduce(earlierDate),
        to: groups.map((group) => group.yearsBack(1).end).reduce(laterDate),
      };
    });
  }

  /** Evaluates every cover group reading the zone's index, every season, from its readings in date order;
   *  the readings are not kept. */
  readZone(zone: Zone, index: string, readings: readonly IndexObservation[]): void {
    for (const key of this.seriesGroups.get(seriesKey(zone, index))?.coverGroups ?? []) {
      const group = this.coverGroups.get(key)!;
      group.outcomes = Array.from({ length: this.seasons }, (_, at) => {
        const season = group.yearsBack(at + 1);
        return this.evaluate(group.terms, group.term, season, readingsBetween(readings, season.start, season.end));
      });
    }
  }

  /** Each season's losses, once every zone was read (a zone never read has no data: due nothing). */
  outcome(): AsIfOutcome {
    const gross = new Array<number>(this.seasons).fill(0);
    const paying = new Array<number>(this.seasons).fill(0);
    const incomplete = new Array<number>(this.seasons).fill(0);
    const zones = new Map<string, { zone: Zone; sumInsuredMinor: number; lossesMinor: number[] }>();
    const zoneOf = (zone: Zone) => {
      const key = zoneKey(zone);
      const found = zones.get(key) ?? {
        zone,
        sumInsuredMinor: 0,
        lossesMinor: new Array<number>(this.seasons).fill(0),
      };
      zones.set(key, found);
      return found;
    };
    let totalSumInsuredMinor = 0;
    for (const group of this.policyGroups.values()) {
      const covers = group.coverGroups.map((key) => this.coverGroups.get(key)!);
      const coverZones = covers.map((cover) => zoneOf(cover.zone));
      for (const [sumInsuredMinor, count] of group.sumsInsured) {
        totalSumInsuredMinor += sumInsuredMinor * count;
        for (const zone of new Set(coverZones)) zone.sumInsuredMinor += sumInsuredMinor * count;
        const limitMinor = amountOf(sumInsuredMinor, group.limit, 'down');
        for (let at = 0; at < this.seasons; at += 1) {
          let paid = 0;
          let complete = true;
          covers.forEach((cover, index) => {
            const outcome = cover.outcomes?.[at] ?? { kind: 'skipped' };
            if (outcome.kind === 'skipped') {
              complete = false;
              return;
            }
            complete &&= outcome.complete;
            // A season pays each cover once, so nothing was paid for it yet; the covers before it in the
            // policy's order have taken `paid` of its limit.
            const pay = payoutFor(
              amountOf(sumInsuredMinor, outcome.duePerSumInsured, group.rounding),
              limitMinor,
              0,
              paid,
            );
            if (pay <= 0) return;
            paid += pay;
            coverZones[index]!.lossesMinor[at]! += pay * count;
          });
          gross[at]! += paid * count;
          if (paid > 0) paying[at]! += count;
          if (!complete) incomplete[at]! += sumInsuredMinor * count;
        }
      }
    }
    const zoneList = [...zones.values()];
    return {
      policies: this.policies,
      totalSumInsuredMinor,
      seasons: gross.map((grossMinor, at) => ({
        yearsBack: at + 1,
        grossMinor,
        payingZones: zoneList.filter((zone) => zone.lossesMinor[at]! > 0).length,
        payingPolicies: paying[at]!,
        exposureIncompleteMinor: incomplete[at]!,
      })),
      zones: zoneList,
    };
  }
}

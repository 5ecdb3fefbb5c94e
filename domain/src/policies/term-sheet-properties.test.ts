import type { Peril, PolicyEvent, TermSheet } from '@cropcover/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain-error';
import { addDays } from '../insurance/calendar/calendar-date';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import { ownFieldDataSources } from '../insurance/index-data/peril-data';
import type { ReadingHistory } from '../insurance/index-data/reading-history';
import { toMajorUnits } from '../insurance/money/minor-units';
import type { ProductTerms } from '../insurance/term-sheet/product';
import { sheetDigest } from '../insurance/term-sheet/sheet-digest';
import {
  amountUnitsOf,
  minorUnitsOfShare,
  sheetLimitMinor,
  sheetRounding,
  unitsOfSumInsured,
} from '../insurance/term-sheet/sheet-money';
import { quoteCover } from '../insurance/underwriting/quote';
import { insuredFarm, insurer } from '../testing/insured-farm';
import { SEASON_2026, seasonReadingsArbitrary, termSheetArbitrary } from '../testing/sheet-arbitraries';
import { evaluatePolicy } from './evaluate-policy';
import { issuePolicy } from './issue-policy';
import { evolvePolicy, type IssuedPolicy, initialPolicy, type Policy } from './policy';

// Policies on random valid sheets: what they pay stays within every limit whatever the weather, and a
// quote prices exactly as the issue of the same cover.

const productOf = (sheet: TermSheet): ProductTerms => ({
  ref: { product_id: 'random-sheet', version: 1, digest: sheetDigest(sheet) },
  sheet,
});

const currencyOf = (sheet: TermSheet): string => (sheet.amounts.unit === 'minor' ? sheet.amounts.currency : 'KES');

/** A sum insured of whole major units: around the basis of a `minor` sheet (pro rata), any for a share. */
const sumInsuredArbitrary = (sheet: TermSheet) =>
  sheet.amounts.unit === 'minor'
    ? fc
        .integer({ min: 1, max: 40 })
        .map((quarters) =>
          Math.ceil(((sheet.amounts as { sum_insured_minor: number }).sum_insured_minor * quarters) / 4 / 100),
        )
    : fc.integer({ min: 10_000, max: 10_000_000 });

/** What quote and issue both ask for: every cover of the sheet over its 2026 season. */
const coverAsked = (sheet: TermSheet, sumInsured: number) => {
  const perils: Peril[] = sheet.covers.map((cover) => cover.peril);
  return {
    request: {
      farm_id: 'farm-1',
      field_id: 'north',
      perils,
      sum_insured: sumInsured,
      currency: currencyOf(sheet),
      term_start: SEASON_2026.start,
      term_end: SEASON_2026.end,
    },
    farm: insuredFarm,
    dataSources: ownFieldDataSources('org-1', 'farm-1', 'north', perils, sheet),
    product: productOf(sheet),
  };
};

const issueOn = (sheet: TermSheet, sumInsured: number, history: ReadingHistory, now: Date): PolicyEvent[] =>
  issuePolicy(
    {
      ...coverAsked(sheet, sumInsured),
      actor: insurer,
      policyId: 'random-policy',
      environment: 'sandbox',
      history,
      settlementPeriodDays: 30,
      now,
    },
    initialPolicy,
  );

const issued = (events: readonly PolicyEvent[]): IssuedPolicy => {
  const state = events.reduce(evolvePolicy, initialPolicy);
  if (state.status === 'not_issued') throw new Error('not issued');
  return state;
};

const refusalOf = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
};

describe('a policy on a random sheet', () => {
  it('never pays a cover more than its limit, nor the policy more than the sheet’s limit or the sum insured', () => {
    const scenario = termSheetArbitrary.chain((sheet) =>
      fc.record({
        sheet: fc.constant(sheet),
        sumInsured: sumInsuredArbitrary(sheet),
        steps: fc.array(
          fc.record({
            day: fc.integer({ min: 0, max: 200 }),
            readings: fc.tuple(...sheet.covers.map((cover) => seasonReadingsArbitrary(cover.reading))),
            kept: fc.integer({ min: 1, max: 183 }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ sheet, sumInsured, steps }) => {
        let state: Policy = issued(issueOn(sheet, sumInsured, {}, new Date('2026-03-30T08:00:00Z')));
        const sumInsuredMinor = (state as IssuedPolicy).issued.sum_insured_minor;
        const units = amountUnitsOf(sheet.amounts);
        const coverLimitMinor = (limit: number) =>
          minorUnitsOfShare(
            { numerator: units(limit), denominator: unitsOfSumInsured(sheet.amounts) },
            sumInsuredMinor,
            sheetRounding(sheet),
          );
        steps.forEach((step, at) => {
          const day = addDays(SEASON_2026.start, step.day);
          const history: ReadingHistory = Object.fromEntries(
            sheet.covers.map((cover, index) => [
              cover.peril,
              (step.readings[index] ?? []).filter((reading, position) => position < step.kept && reading.date <= day),
            ]),
          );
          const policy = state as IssuedPolicy;
          if (day >= addDays(policy.issued.term_end, 30)) return;
          const events = evaluatePolicy(
            { actor: insurer, evaluationId: `e${at}`, readings: history, now: new Date(`${day}T12:00:00Z`) },
            state,
          );
          state = events.reduce(evolvePolicy, state);
          const after = state as IssuedPolicy;
          expect(after.paidMinor).toBeLessThanOrEqual(sheetLimitMinor(sheet, sumInsuredMinor));
          expect(sheetLimitMinor(sheet, sumInsuredMinor)).toBeLessThanOrEqual(sumInsuredMinor);
          for (const cover of after.perils) {
            expect(cover.paidMinor).toBeLessThanOrEqual(coverLimitMinor(cover.terms.limit));
          }
        });
      }),
      { numRuns: 150 },
    );
  });

  it('is issued at the premium its quote shows, or refused as the quote is', () => {
    const scenario = termSheetArbitrary.chain((sheet) =>
      fc.record({
        sheet: fc.constant(sheet),
        sumInsured: sumInsuredArbitrary(sheet),
        // Past seasons of each cover's readings, some of them complete enough to be priced on.
        seasons: fc.tuple(
          ...sheet.covers.map((cover) =>
            fc.array(seasonReadingsArbitrary(cover.reading), { minLength: 0, maxLength: 3 }),
          ),
        ),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ sheet, sumInsured, seasons }) => {
        const history: ReadingHistory = Object.fromEntries(
          sheet.covers.map((cover, index) => [
            cover.peril,
            (seasons[index] ?? []).flatMap((season, years) =>
              season.map(
                (reading): IndexObservation => ({
                  ...reading,
                  date: `${2025 - years}${reading.date.slice(4)}`,
                }),
              ),
            ),
          ]),
        );
        const now = new Date('2026-03-30T08:00:00Z');
        const quote = () => quoteCover({ ...coverAsked(sheet, sumInsured), today: '2026-03-30', history });
        const quoteRefusal = refusalOf(quote);
        const issueRefusal = refusalOf(() => issueOn(sheet, sumInsured, history, now));
        expect(issueRefusal).toBe(quoteRefusal);
        if (quoteRefusal !== undefined) return;
        const quoted = quote();
        const policy = issued(issueOn(sheet, sumInsured, history, now));
        expect(toMajorUnits(policy.issued.premium_minor, policy.issued.currency)).toBe(quoted.premium);
        expect(policy.issued.rate).toBe(quoted.rate);
        expect(
          Object.fromEntries(
            policy.issued.pricing.map((price) => [
              price.peril,
              toMajorUnits(price.premium_minor, policy.issued.currency),
            ]),
          ),
        ).toEqual(Object.fromEntries(Object.entries(quoted.breakdown).map(([peril, price]) => [peril, price.premium])));
        expect(policy.product).toEqual(quoted.product);
      }),
      { numRuns: 100 },
    );
  });
});

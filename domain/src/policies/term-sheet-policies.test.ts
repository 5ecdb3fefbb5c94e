import type { PolicyEvent, TermSheet } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { addDays } from '../insurance/calendar/calendar-date';
import type { IndexObservation } from '../insurance/index-data/index-observation';
import { ownFieldDataSources } from '../insurance/index-data/peril-data';
import { readingsUsedOf } from '../insurance/index-data/readings-provenance';
import type { ProductTerms } from '../insurance/term-sheet/product';
import { sheetDigest } from '../insurance/term-sheet/sheet-digest';
import { KHARIF_DEFICIT_SHEET } from '../testing/example-sheets';
import { insuredFarm, insurer } from '../testing/insured-farm';
import { triggerBreachedDelivery } from '../webhooks/trigger-breached-delivery';
import { evaluatePolicy } from './evaluate-policy';
import { evaluationResult } from './evaluation-result';
import { issuePolicy } from './issue-policy';
import { evolvePolicy, type IssuedPolicy, initialPolicy, type Policy } from './policy';
import { policyView } from './policy-view';

// TERM-SHEETS.md §3 G21 and G22 on an issued policy: example B, three phases of deficit rainfall that
// settle when their windows close, a cover limit below the sum of the phase limits. What is paid, when.

const productOf = (sheet: TermSheet, productId: string): ProductTerms => ({
  ref: { product_id: productId, version: 1, digest: sheetDigest(sheet) },
  sheet,
});
const kharif = productOf(KHARIF_DEFICIT_SHEET, 'kharif-deficit');
const season = { start: '2026-06-01', end: '2026-09-30' };

const issued = (product: ProductTerms = kharif): IssuedPolicy => {
  const state = issuePolicy(
    {
      actor: insurer,
      policyId: 'policy-kharif',
      environment: 'sandbox',
      request: {
        farm_id: 'farm-1',
        field_id: 'north',
        perils: ['drought'],
        sum_insured: 30_000,
        currency: 'INR',
        term_start: season.start,
        term_end: season.end,
      },
      farm: insuredFarm,
      dataSources: ownFieldDataSources('org-1', 'farm-1', 'north', ['drought'], product.sheet),
      history: {},
      settlementPeriodDays: 30,
      now: new Date('2026-05-30T08:00:00Z'),
      product,
    },
    initialPolicy,
  ).reduce(evolvePolicy, initialPolicy);
  if (state.status === 'not_issued') throw new Error('not issued');
  return state;
};

/** `value` mm on each day from `from` to `to`. */
const rain = (from: string, to: string, value: number): IndexObservation[] => {
  const readings: IndexObservation[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) readings.push({ date, value, revision: 1 });
  return readings;
};

/** G21's season: phase 1 reads 40 mm, phase 2 60 mm, phase 3 a 150 mm dekad capped at 60. */
const g21Season = (): IndexObservation[] => [
  ...rain('2026-06-01', '2026-06-10', 3),
  ...rain('2026-06-11', '2026-06-20', 1),
  ...rain('2026-06-21', '2026-06-30', 0),
  ...rain('2026-07-01', '2026-07-30', 2),
  ...rain('2026-07-31', '2026-08-10', 0),
  ...rain('2026-08-11', '2026-08-20', 15),
  ...rain('2026-08-21', '2026-09-30', 0),
];

const evaluateOn = (state: Policy, date: string, readings: readonly IndexObservation[], id: string) => {
  const events = evaluatePolicy(
    {
      actor: insurer,
      evaluationId: id,
      readings: { drought: readings.filter((reading) => reading.date <= date) },
      now: new Date(`${date}T20:00:00Z`),
    },
    state,
  );
  return { events, state: events.reduce(evolvePolicy, state) as IssuedPolicy };
};

const paid = (events: readonly PolicyEvent[]): number[] =>
  events.flatMap((event) => (event.type === 'PayoutApproved' ? [event.data.amount_minor] : []));

describe('a policy on example B (TERM-SHEETS.md G21): the cover limit over three phases', () => {
  it('freezes the product and its whole sheet, and writes no trigger terms', () => {
    const policy = issued();
    expect(policy.issued).toMatchObject({ product: kharif.ref, triggers: [] });
    expect({ ...policy.sheet, covers: policy.perils.map((cover) => cover.terms) }).toEqual(KHARIF_DEFICIT_SHEET);
    expect(policyView(policy).product).toEqual(kharif.ref);
  });

  it('pays 600,000 when phase 1 closes, 900,000 more when phase 2 does and 900,000 at the end: 2,400,000', () => {
    const readings = g21Season();
    let state = issued();
    const payments: number[] = [];
    for (const [at, date] of [
      '2026-06-20',
      '2026-06-30',
      '2026-07-31',
      '2026-08-10',
      '2026-09-15',
      '2026-09-30',
    ].entries()) {
      const evaluated = evaluateOn(state, date, readings, `e${at}`);
      payments.push(...paid(evaluated.events).map((amount) => amount));
      state = evaluated.state;
      if (date === '2026-06-20') expect(paid(evaluated.events)).toEqual([]);
    }
    expect(payments).toEqual([600_000, 900_000, 900_000]);
    expect(state.paidMinor).toBe(2_400_000);
  });

  it('shows each phase beside the governing one, amounts in rupees', () => {
    const readings = g21Season();
    const { events, state } = evaluateOn(issued(), '2026-09-30', readings, 'e1');
    const evaluated = events.find((event) => event.type === 'TriggerEvaluated');
    expect(evaluated?.data).toMatchObject({
      trigger_index: 'phase_rainfall_dekad_capped_mm',
      // Phase 2 and 3 are worth 900,000 and 1,000,000, phase 1 600,000: the largest governs.
      observed_value: 60,
      threshold: 160,
      comparison: 'lte',
      severity: 1,
      amount_due_minor: 2_400_000,
      window_start: '2026-08-11',
      window_end: '2026-09-30',
    });
    const result = evaluationResult(state, events);
    expect(result.events[0]?.phases).toEqual([
      expect.objectContaining({
        phase: 'establishment',
        status: 'closed',
        observed_value: 40,
        trigger: 100,
        exit: 40,
        breached: true,
        amount_due: 6_000,
      }),
      expect.objectContaining({
        phase: 'vegetative',
        status: 'closed',
        observed_value: 60,
        trigger: 150,
        exit: 60,
        breached: true,
        amount_due: 9_000,
      }),
      expect.objectContaining({
        phase: 'flowering',
        status: 'closed',
        observed_value: 60,
        trigger: 160,
        exit: 40,
        breached: true,
        amount_due: 10_000,
      }),
    ]);
    const breach = events.find((event) => event.type === 'TriggerBreached');
    expect(breach?.data).toMatchObject({ phase: 'flowering' });
    if (breach?.type !== 'TriggerBreached') throw new Error('no breach');
    // The webhook names the governing phase too; a single-phase cover's names none (webhooks tests).
    expect(triggerBreachedDelivery('event-1', 'org-1', breach.data).data).toMatchObject({
      phase: 'flowering',
      observed_value: 60,
      threshold: 160,
      payout: { amount: 24_000, currency: 'INR' },
    });
  });

  it('pays 100,000 for phase 3 when its dekad is not capped', () => {
    const [drought] = KHARIF_DEFICIT_SHEET.covers;
    const uncapped: TermSheet = {
      ...KHARIF_DEFICIT_SHEET,
      covers: [
        {
          ...drought!,
          phases: drought!.phases.map((phase) =>
            phase.id === 'flowering' ? { ...phase, blocks: { by: 'dekad' } } : phase,
          ),
        },
      ],
    };
    const readings = g21Season().filter((reading) => reading.date >= '2026-08-11');
    const { events } = evaluateOn(issued(productOf(uncapped, 'kharif-uncapped')), '2026-09-30', readings, 'e1');
    const evaluated = events.find((event) => event.type === 'TriggerEvaluated');
    expect(evaluated?.data.phases?.find((phase) => phase.phase === 'flowering')).toMatchObject({
      observed_value: 150,
      amount_due_minor: 100_000,
    });
  });
});

describe('a phase skipped for incomplete data (TERM-SHEETS.md G22)', () => {
  const withoutPhase2End = (kept: (date: string) => boolean) =>
    g21Season().filter((reading) => reading.date < '2026-08-06' || reading.date > '2026-08-10' || kept(reading.date));

  it('records each phase’s files and origin digest from its own range (INDEX-DATA §4)', () => {
    // June came from a final release; the rest was posted through the readings API.
    const file = { sha256: 'f'.repeat(64), label: 'final' };
    const season = g21Season().map((reading) =>
      reading.date < '2026-07-01' ? { ...reading, files: [file] } : reading,
    );
    const { events } = evaluateOn(issued(), '2026-09-30', season, 'e1');
    const evaluated = events.find((event) => event.type === 'TriggerEvaluated');
    const phases = evaluated?.data.phases ?? [];
    expect(phases).toHaveLength(3);
    for (const phase of phases) {
      const used = readingsUsedOf('', season, phase.readings_from!, phase.readings_to!);
      expect(phase).toMatchObject({ digest: used.digest, files: used.files, origin_digest: used.origin_digest });
    }
    expect(phases[0]?.files).toEqual([{ ...file, values: 30 }]);
    expect(phases[2]?.files).toEqual([]);
    // The history's phases leave provenance in the event.
    expect(evaluationResult(issued(), events).events[0]?.phases?.[0]).not.toHaveProperty('files');
  });

  it('as of 08-10, phase 2 read on 36 of 41 days is skipped; the cover shows phase 1 and pays nothing more', () => {
    const first = evaluateOn(issued(), '2026-06-30', g21Season(), 'e1');
    expect(paid(first.events)).toEqual([600_000]);
    const { events } = evaluateOn(
      first.state,
      '2026-08-10',
      withoutPhase2End(() => false),
      'e2',
    );
    const evaluated = events.find((event) => event.type === 'TriggerEvaluated');
    expect(evaluated?.data).toMatchObject({
      observed_value: 40,
      threshold: 100,
      severity: 0.25,
      amount_due_minor: 600_000,
    });
    expect(evaluated?.data.phases?.[1]).toMatchObject({
      phase: 'vegetative',
      status: 'skipped',
      skipped_reason: 'incomplete_data',
      coverage: { days_with_reading: 36, days_in_window: 41 },
      amount_due_minor: 0,
    });
    expect(paid(events)).toEqual([]);
  });

  it('with 08-06 read (37 of 41), the 4 missing days count 1000 mm, the dekad caps at 60: phase 2 300,000', () => {
    const first = evaluateOn(issued(), '2026-06-30', g21Season(), 'e1');
    const { events } = evaluateOn(
      first.state,
      '2026-08-10',
      withoutPhase2End((date) => date === '2026-08-06'),
      'e2',
    );
    const evaluated = events.find((event) => event.type === 'TriggerEvaluated');
    expect(evaluated?.data.phases?.[1]).toMatchObject({ observed_value: 120, amount_due_minor: 300_000 });
    expect(evaluated?.data.amount_due_minor).toBe(900_000);
    expect(paid(events)).toEqual([300_000]);
  });
});

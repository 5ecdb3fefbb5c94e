import type { PolicyEvent } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { insurer } from '../testing/insured-farm';
import {
  BACKTEST_THEN,
  EVALUATION_DAYS,
  EVENTS_DECIDED_THEN,
  POLICY_ISSUED_BEFORE_PRODUCTS,
  READINGS_OF_ITS_TERM,
} from '../testing/policy-before-products';
import { backtestPolicy } from './backtest-policy';
import { evaluatePolicy } from './evaluate-policy';
import { evolvePolicy, initialPolicy, type Policy } from './policy';
import { policyView } from './policy-view';

// TERM-SHEETS.md §4, backward compatibility: a PolicyIssued recorded before products, without a sheet,
// is read as `default` version 0 built from its own frozen triggers, and decides what it decided then —
// every payout, breach, overpayment and backtest to the minor unit. Only the provenance's name of what
// read the readings is new (`default@0#<peril>`; it was the aggregation's kind), and where the values came
// from (`files`, `origin_digest`, INDEX-DATA §4), which it did not record.

const { rain, ndvi, wind } = READINGS_OF_ITS_TERM;
const readings = { drought: rain, flood: rain, vegetation_stress: ndvi, storm: wind };

/** The events with the provenance's `aggregate` and the values' origins left out. */
const withoutAggregate = (events: readonly PolicyEvent[]) =>
  events.map((event) => {
    if (event.type !== 'TriggerEvaluated' || event.data.provenance === undefined) return event;
    const { aggregate: _, files: _files, origin_digest: _origin, ...provenance } = event.data.provenance;
    return { ...event, data: { ...event.data, provenance } };
  });

describe('a policy issued before products', () => {
  it('is read as default version 0, from its own triggers', () => {
    expect(POLICY_ISSUED_BEFORE_PRODUCTS.data).not.toHaveProperty('term_sheet');
    const state = evolvePolicy(initialPolicy, POLICY_ISSUED_BEFORE_PRODUCTS);
    if (state.status === 'not_issued') throw new Error('not issued');
    expect(state.product).toMatchObject({ product_id: 'default', version: 0 });
    expect(policyView(state).product).toEqual(state.product);
    expect(state.perils.map((cover) => cover.terms.phases[0]?.payout)).toEqual([
      { linear: { direction: 'below', trigger: { per_window_day: 2 }, exit: { per_window_day: 0.8 } } },
      { linear: { direction: 'above', trigger: 150, exit: 300 } },
      { linear: { direction: 'below', trigger: 0.35, exit: 0.15 } },
      { linear: { direction: 'above', trigger: 25, exit: 40 } },
    ]);
  });

  it('pays, breaches and records overpayments on its five evaluations exactly as it did', () => {
    let state: Policy = evolvePolicy(initialPolicy, POLICY_ISSUED_BEFORE_PRODUCTS);
    const decided: PolicyEvent[] = [];
    EVALUATION_DAYS.forEach((day, at) => {
      const upTo = Object.fromEntries(
        Object.entries(readings).map(([peril, series]) => [peril, series.filter((reading) => reading.date <= day)]),
      );
      const events = evaluatePolicy(
        { actor: insurer, evaluationId: `e${at}`, readings: upTo, now: new Date(`${day}T06:00:00.000Z`) },
        state,
      );
      state = events.reduce(evolvePolicy, state);
      decided.push(...events);
    });
    expect(withoutAggregate(decided)).toEqual(withoutAggregate(EVENTS_DECIDED_THEN));
    expect(decided.flatMap((event) => (event.type === 'PayoutApproved' ? [event.data.amount_minor] : []))).toEqual([
      7_119_341, 3_559_670, 1_666_667,
    ]);
  });

  it('backtests exactly as it did', () => {
    const state = [POLICY_ISSUED_BEFORE_PRODUCTS, ...EVENTS_DECIDED_THEN].reduce(evolvePolicy, initialPolicy);
    expect(
      backtestPolicy(
        { actor: insurer, asOf: '2026-07-10', readings, now: new Date('2026-07-20T06:00:00.000Z') },
        state,
      ),
    ).toEqual(BACKTEST_THEN);
  });
});

import { policyIssuedEvents } from '@cropcover/domain/testing';
import type { RecordedEvent } from '@cropcover/eventstore';
import { describe, expect, it } from 'vitest';
import { decodeEvent, isOneOf } from './decode-event';

const recorded = <Type extends string>(type: Type, data: unknown): RecordedEvent<Type> => ({
  type,
  data,
  metadata: {
    event_id: 'e-1',
    occurred_at: '2026-04-05T06:00:00.000Z',
    actor: 'underwriter',
    organization_id: 'org-1',
    correlation_id: 'c-1',
    causation_id: null,
    schema_version: 1,
    platform_version: '0.0.0-test',
  },
  streamId: 'policy-p-1',
  revision: 2,
  position: { commit: 1n, prepare: 2n },
});

/** A breach as the log held it before TriggerBreached carried the policy's organization. */
const breachBeforeOrganization = {
  policy_id: 'p-1',
  evaluation_id: 'eval-1',
  farm_id: 'farm-1',
  field_id: 'north',
  peril: 'flood',
  trigger_index: 'max_5day_rainfall_mm',
  observed_value: 200,
  threshold: 100,
  severity: 1,
  as_of: '2026-04-05',
  payout: { payout_id: 'payout-1', amount_minor: 1_000_000, currency: 'KES' },
  breached_at: '2026-04-05T06:00:00.000Z',
};

/** A policy as the log held it before trigger terms carried `min_coverage`. */
const policyIssuedBeforeCompleteness = {
  policy_id: 'p-1',
  organization_id: 'org-1',
  environment: 'sandbox',
  farm_id: 'farm-1',
  field_id: 'north',
  farm_name: null,
  field_name: null,
  field_area_ha: null,
  field_location: null,
  crop_type: null,
  currency: 'KES',
  sum_insured_minor: 1_000_000,
  premium_minor: 50_000,
  rate: 0.05,
  pricing: [{ peril: 'drought', rate: 0.05, premium_minor: 50_000, method: 'base_rate', seasons_used: 0 }],
  perils: ['drought'],
  triggers: [
    {
      peril: 'drought',
      trigger_index: 'cumulative_rainfall_mm',
      reading: 'rainfall_mm',
      aggregation: { kind: 'sum' },
      comparison: 'lte',
      threshold: 20,
      exit: 8,
      declarable: { kind: 'window_closed' },
    },
  ],
  term_start: '2026-04-01',
  term_end: '2026-04-10',
  settlement_period_days: 30,
  issued_at: '2026-03-25T08:00:00.000Z',
  platform_version: '0.0.0-test',
};

describe('decodeEvent', () => {
  it('gives the event in its contract shape', () => {
    const breach = { ...breachBeforeOrganization, organization_id: 'org-1' };
    expect(decodeEvent(recorded('TriggerBreached', breach))).toEqual({ type: 'TriggerBreached', data: breach });
  });

  it('still reads a breach recorded before it named the organization, without one', () => {
    const decoded = decodeEvent(recorded('TriggerBreached', breachBeforeOrganization));
    expect(decoded).toEqual({ type: 'TriggerBreached', data: breachBeforeOrganization });
    expect(decoded.data.organization_id).toBeUndefined();
  });

  it('still reads evaluations and skips recorded before coverage and skip reasons', () => {
    const evaluated = {
      policy_id: 'p-1',
      evaluation_id: 'eval-1',
      peril: 'drought',
      trigger_index: 'cumulative_rainfall_mm',
      as_of: '2026-04-05',
      window_start: '2026-04-01',
      window_end: '2026-04-05',
      observed_value: 12,
      readings_used: 2,
      threshold: 20,
      comparison: 'lte',
      breached: false,
      severity: 0,
      evaluated_at: '2026-04-05T06:00:00.000Z',
    };
    expect(decodeEvent(recorded('TriggerEvaluated', evaluated)).data.coverage).toBeUndefined();
    const { policy_id, evaluation_id, as_of, window_start, window_end, evaluated_at } = evaluated;
    const skipped = { policy_id, evaluation_id, perils: ['flood'], as_of, window_start, window_end, evaluated_at };
    expect(decodeEvent(recorded('TriggerEvaluationSkipped', skipped)).data.reasons).toBeUndefined();
  });

  it('still reads a policy issued before its triggers froze their completeness', () => {
    const { data } = decodeEvent(recorded('PolicyIssued', policyIssuedBeforeCompleteness));
    expect(data.triggers[0]!.min_coverage).toBeUndefined();
  });

  it('refuses a malformed event, naming its stream, revision and type', () => {
    const { severity: _, ...withoutSeverity } = breachBeforeOrganization;
    expect(() => decodeEvent(recorded('TriggerBreached', withoutSeverity))).toThrow(
      /malformed TriggerBreached at policy-p-1@2: .*severity/s,
    );
    expect(() => decodeEvent(recorded('PolicyRenamed', {}))).toThrow(/malformed PolicyRenamed at policy-p-1@2/);
  });
});

describe('isOneOf', () => {
  it('keeps only the event types a reader handles', () => {
    const events = [recorded('TriggerBreached', {}), recorded('PayoutSettled', {})];
    expect(events.filter(isOneOf(new Set(['PayoutSettled']))).map((event) => event.type)).toEqual(['PayoutSettled']);
  });

  it('checks each distinct frozen sheet once, and every other field of every PolicyIssued always', () => {
    const [issued] = policyIssuedEvents({ perils: ['drought', 'flood'] });
    const data = issued!.data as unknown as Record<string, unknown> & { term_sheet: Record<string, unknown> };
    const first = decodeEvent(recorded('PolicyIssued', structuredClone(data)));
    expect(first.data).toEqual(data);
    // The same sheet again: read as checked, with the rest of the event checked as ever.
    expect(decodeEvent(recorded('PolicyIssued', structuredClone(data))).data).toEqual(data);
    expect(() => decodeEvent(recorded('PolicyIssued', { ...structuredClone(data), sum_insured_minor: -1 }))).toThrow(
      /malformed PolicyIssued/,
    );
    // Another sheet is checked, and a malformed one refused however many valid ones came before.
    const malformed = { ...structuredClone(data), term_sheet: { ...data.term_sheet, rounding: 'up' } };
    expect(() => decodeEvent(recorded('PolicyIssued', malformed))).toThrow(/term_sheet/);
    expect(() => decodeEvent(recorded('PolicyIssued', malformed))).toThrow(/term_sheet/);
  });
});

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
});

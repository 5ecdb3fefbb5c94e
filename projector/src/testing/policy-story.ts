import { randomUUID } from 'node:crypto';
import type { Peril, PolicyEvent } from '@cropcover/contracts';
import {
  type Actor,
  DEFAULT_SETTLEMENT_PERIOD_DAYS,
  evaluatePolicy,
  evolveFarm,
  evolvePolicy,
  type IssuedPolicy,
  initialFarm,
  initialPolicy,
  issuePolicy,
  lapsePolicy,
  ownFieldDataSources,
  type Policy,
  type ProductTerms,
  policyStream,
  type ReadingHistory,
  settlePayout,
} from '@cropcover/domain';
import { insuredFarmEvents } from '@cropcover/domain/testing';
import type { NewEvent } from '@cropcover/eventstore';

// A policy's life as the command side records it: every event comes from the domain's own deciders, so
// tests of the read side see exactly the payloads the write side appends.

export interface PolicyStoryStart {
  readonly policyId: string;
  readonly organizationId: string;
  readonly farmId?: string;
  readonly fieldId?: string;
  readonly perils: readonly Peril[];
  readonly sumInsured?: number;
  readonly termStart: string;
  readonly termEnd: string;
  readonly issuedAt: string;
  readonly subject?: string;
  /** The product version issued on; `default` when absent. */
  readonly product?: ProductTerms;
  readonly currency?: string;
}

export interface PolicyStory {
  readonly streamId: string;
  readonly actor: Actor;
  /** Every event so far, with the metadata the command API would give it. */
  readonly events: readonly NewEvent[];
  readonly state: IssuedPolicy;
  /** Events recorded since the last call: what one append would carry. */
  takeNew(): NewEvent[];
  evaluate(readings: ReadingHistory, at: string, evaluationId?: string): PolicyEvent[];
  settle(payoutId: string, at: string): PolicyEvent[];
  lapse(reason: string, at: string): PolicyEvent[];
}

// The farm is registered in 2020, before any season a story covers.
const registeredFarm = (farmId: string, fieldId: string) =>
  insuredFarmEvents({ farmId, fieldId, year: 2020 }).reduce(evolveFarm, initialFarm);

export const policyStory = (start: PolicyStoryStart): PolicyStory => {
  const farmId = start.farmId ?? 'farm-1';
  const fieldId = start.fieldId ?? 'north';
  const actor: Actor = {
    subject: start.subject ?? 'underwriter',
    organizationId: start.organizationId,
    isAdmin: false,
  };
  const events: NewEvent[] = [];
  let taken = 0;
  let state: Policy = initialPolicy;
  const record = (next: PolicyEvent[], at: string): PolicyEvent[] => {
    const correlationId = randomUUID();
    for (const event of next) {
      events.push({
        type: event.type,
        data: event.data,
        metadata: {
          event_id: randomUUID(),
          occurred_at: at,
          actor: actor.subject,
          organization_id: start.organizationId,
          correlation_id: correlationId,
          causation_id: null,
          schema_version: 1,
          platform_version: '0.0.0-test',
        },
      });
    }
    state = next.reduce(evolvePolicy, state);
    return next;
  };
  record(
    issuePolicy(
      {
        actor,
        policyId: start.policyId,
        environment: 'sandbox',
        request: {
          farm_id: farmId,
          field_id: fieldId,
          perils: [...start.perils],
          sum_insured: start.sumInsured ?? 10_000,
          ...(start.currency === undefined ? {} : { currency: start.currency }),
          term_start: start.termStart,
          term_end: start.termEnd,
        },
        farm: registeredFarm(farmId, fieldId),
        dataSources: ownFieldDataSources(start.organizationId, farmId, fieldId, start.perils, start.product?.sheet),
        history: {},
        settlementPeriodDays: DEFAULT_SETTLEMENT_PERIOD_DAYS,
        now: new Date(start.issuedAt),
        product: start.product,
      },
      state,
    ),
    start.issuedAt,
  );
  return {
    streamId: policyStream(start.policyId),
    actor,
    events,
    get state() {
      if (state.status === 'not_issued') throw new Error('the story issues its policy first');
      return state;
    },
    takeNew: () => {
      const fresh = events.slice(taken);
      taken = events.length;
      return fresh;
    },
    evaluate: (readings, at, evaluationId = randomUUID()) =>
      record(evaluatePolicy({ actor, evaluationId, readings, now: new Date(at) }, state), at),
    settle: (payoutId, at) => record(settlePayout({ actor, payoutId, now: new Date(at) }, state), at),
    lapse: (reason, at) => record(lapsePolicy({ actor, reason, now: new Date(at) }, state), at),
  };
};

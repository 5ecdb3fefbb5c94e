import { decodeEvent, isOneOf } from '@cropcover/application';
import { ERASED_TEXT, PolicyEvent } from '@cropcover/contracts';
import { evolvePolicy, type IssuedPolicy, initialPolicy, phasesForClients } from '@cropcover/domain';
import type { RecordedEvent } from '@cropcover/eventstore';
import type { PolicyEvaluationsTable, PolicyPayoutsTable, ReadModels } from '@cropcover/read-store';
import { type Insertable, sql, type Transaction } from 'kysely';
import type { Projection } from '../projection';
import { anyOf, recordsetOf } from './batch-parameters';
import { applyPolicyCountChanges, policyCountChanges } from './policy-counts';
import { policyPayoutRow, policyRow } from './policy-rows';
import { inChunks } from './row-chunks';

type EvaluationRow = Insertable<PolicyEvaluationsTable>;
type PayoutRow = Insertable<PolicyPayoutsTable>;
type RevisedPolicyEvent = PolicyEvent & { readonly revision: number };

interface PolicyState {
  readonly aggregate: IssuedPolicy;
  readonly revision: number;
}

const HANDLED = new Set(PolicyEvent.options.map((option) => option.shape.type.value));

const decode = (event: RecordedEvent<PolicyEvent['type']>): RevisedPolicyEvent => ({
  ...decodeEvent(event),
  revision: event.revision,
});

const loadPolicies = async (
  trx: Transaction<ReadModels>,
  policyIds: readonly string[],
): Promise<Map<string, PolicyState>> => {
  const rows = await trx
    .selectFrom('policies')
    .select(['policy_id', 'aggregate', 'stream_revision'])
    .where('policy_id', '=', anyOf(policyIds))
    .execute();
  return new Map(rows.map((row) => [row.policy_id, { aggregate: row.aggregate, revision: row.stream_revision }]));
};

/** The policy after the event, or undefined when the event is already reflected (a replay) or concerns a
 *  policy never issued. */
const evolve = (policy: PolicyState | undefined, event: RevisedPolicyEvent): PolicyState | undefined => {
  const applied = event.type === 'PolicyIssued' ? policy !== undefined : !policy || policy.revision >= event.revision;
  if (applied) return undefined;
  const aggregate = evolvePolicy(policy?.aggregate ?? initialPolicy, event);
  return aggregate.status === 'not_issued' ? undefined : { aggregate, revision: event.revision };
};

const evaluationRow = (event: RevisedPolicyEvent, policy: IssuedPolicy): EvaluationRow | undefined => {
  if (event.type !== 'TriggerEvaluated') return undefined;
  // The history shows the coverage the evaluation was judged on, not the count of readings used nor the
  // provenance: those stay in the event. An evaluation recorded before coverage was has none (null).
  // Columns are named one by one: a field added to the event must not become a column by accident.
  const { data } = event;
  const { coverage } = data;
  return {
    evaluation_id: data.evaluation_id,
    peril: data.peril,
    policy_id: data.policy_id,
    organization_id: policy.issued.organization_id,
    trigger_index: data.trigger_index,
    observed_value: data.observed_value,
    threshold: data.threshold,
    breached: data.breached,
    severity: data.severity,
    as_of: data.as_of,
    window_start: data.window_start,
    window_end: data.window_end,
    evaluated_at: data.evaluated_at,
    days_with_reading: coverage?.days_with_reading ?? null,
    days_in_window: coverage?.days_in_window ?? null,
    phases: phasesForClients(data.phases, policy.issued.currency) ?? null,
    payout_id: null,
    overpayment_paid_minor: null,
    overpayment_due_minor: null,
    overpayment_currency: null,
    overpayment_recorded_at: null,
  };
};

type Overpayment = Extract<PolicyEvent, { type: 'PayoutOverpaymentRecorded' }>['data'];

const overpaymentColumns = (overpayment: Overpayment) => ({
  overpayment_paid_minor: overpayment.amount_paid_minor,
  overpayment_due_minor: overpayment.amount_due_minor,
  overpayment_currency: overpayment.currency,
  overpayment_recorded_at: overpayment.recorded_at,
});

/** Serialises this projection's batches across processes (a second projector or a rebuild on the same
 *  database): the rows a batch loads are then the ones its writes replace, so the policy_counts deltas,
 *  computed from those rows, are applied exactly once per change. Held until the batch commits. */
const lockPolicies = async (trx: Transaction<ReadModels>): Promise<void> => {
  await sql`select pg_advisory_xact_lock(hashtextextended('cropcover.projection.policies', 0))`.execute(trx);
};

/** Writes the policies and returns the ids of the rows actually written: a row the stream_revision guard
 *  kept (already newer) must not move a count either. */
const upsertPolicies = async (trx: Transaction<ReadModels>, policies: readonly PolicyState[]): Promise<Set<string>> => {
  if (policies.length === 0) return new Set();
  const rows = await trx
    .insertInto('policies')
    .expression(
      recordsetOf(
        'policies',
        policies.map((policy) => policyRow(policy.aggregate, policy.revision)),
      ),
    )
    .onConflict((conflict) =>
      conflict
        .column('policy_id')
        // Only the status, the monitoring date and the aggregate change after issue; the owner is set again
        // for a row a process older than migration 0040 inserted without it (the erasure scrub finds by it).
        .doUpdateSet((eb) => ({
          owner_farmer_id: eb.ref('excluded.owner_farmer_id'),
          status: eb.ref('excluded.status'),
          next_monitoring_date: eb.ref('excluded.next_monitoring_date'),
          aggregate: eb.ref('excluded.aggregate'),
          stream_revision: eb.ref('excluded.stream_revision'),
        }))
        // Never let an older view of the row overwrite a newer one.
        .where('policies.stream_revision', '<', (eb) => eb.ref('excluded.stream_revision')),
    )
    .returning('policy_id')
    .execute();
  return new Set(rows.map((row) => row.policy_id));
};

const insertEvaluations = async (trx: Transaction<ReadModels>, rows: readonly EvaluationRow[]): Promise<void> => {
  if (rows.length === 0) return;
  await trx
    .insertInto('policy_evaluations')
    .expression(recordsetOf('policy_evaluations', rows))
    .onConflict((conflict) => conflict.columns(['evaluation_id', 'peril']).doNothing())
    .execute();
};

const upsertPayouts = async (trx: Transaction<ReadModels>, rows: readonly PayoutRow[]): Promise<void> => {
  for (const chunk of inChunks(rows)) {
    await trx
      .insertInto('policy_payouts')
      .values(chunk)
      .onConflict((conflict) =>
        conflict.column('payout_id').doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          settled_at: eb.ref('excluded.settled_at'),
        })),
      )
      .execute();
  }
};

/** Links payouts to the evaluation rows of earlier batches (an evaluation's events may span two batches). */
const linkPayouts = async (trx: Transaction<ReadModels>, payouts: readonly PayoutRow[]): Promise<void> => {
  for (const payout of payouts) {
    await trx
      .updateTable('policy_evaluations')
      .set({ payout_id: payout.payout_id })
      .where('evaluation_id', '=', payout.evaluation_id)
      .where('peril', '=', payout.peril)
      .execute();
  }
};

/** Shows overpayments on the evaluation rows of earlier batches, as linkPayouts does payouts. */
const showOverpayments = async (trx: Transaction<ReadModels>, overpayments: readonly Overpayment[]): Promise<void> => {
  for (const overpayment of overpayments) {
    await trx
      .updateTable('policy_evaluations')
      .set(overpaymentColumns(overpayment))
      .where('evaluation_id', '=', overpayment.evaluation_id)
      .where('peril', '=', overpayment.peril)
      .execute();
  }
};

const evaluationKey = (evaluationId: string, peril: string): string => `${evaluationId}/${peril}`;

/** Policies (`policies`, counted in `policy_counts`), their evaluation history (`policy_evaluations`,
 *  with each overpayment recorded on its evaluation's row) and payouts (`policy_payouts`), from the `policy-<id>` streams. Reads the policies a batch touches, folds
 *  the batch's events into their aggregates with the domain's evolvePolicy (skipping those at or below a
 *  row's stream_revision), then writes each changed policy once, the new evaluation rows and the payouts
 *  the batch approved or settled. policy_counts moves by the difference between each row as read and as
 *  written, under a lock that keeps two processes from applying the same change twice. */
export const policiesProjection: Projection = {
  name: 'policies',
  tables: ['policies', 'policy_counts', 'policy_evaluations', 'policy_payouts'],
  apply: async (trx, events) => {
    await applyPolicyEvents(trx, events);
    await scrubErasedFarmNames(trx, events);
  },
};

const ERASURES = new Set(['FarmerErased'] as const);

/** A farmer erased (SPEC §6): the farm name frozen into their policies reads as erased, in the column and
 *  in the stored aggregate; everything a policy pays on stays. Events read from now on show it already. */
const scrubErasedFarmNames = async (trx: Transaction<ReadModels>, events: readonly RecordedEvent[]): Promise<void> => {
  const erased = events.filter(isOneOf(ERASURES)).map((event) => decodeEvent(event).data.farmer_id);
  if (erased.length === 0) return;
  await trx
    .updateTable('policies')
    .set({
      farm_name: ERASED_TEXT,
      aggregate: sql`jsonb_set(aggregate, '{issued,farm_name}', to_jsonb(${ERASED_TEXT}::text))`,
    })
    .where('owner_farmer_id', 'in', erased)
    .execute();
};

const applyPolicyEvents = async (trx: Transaction<ReadModels>, events: readonly RecordedEvent[]): Promise<void> => {
  const policyEvents = events.filter(isOneOf(HANDLED)).map(decode);
  if (policyEvents.length === 0) return;
  await lockPolicies(trx);
  const policies = await loadPolicies(trx, [...new Set(policyEvents.map((event) => event.data.policy_id))]);
  const before = new Map(policies);
  const changed = new Map<string, PolicyState>();
  const evaluations = new Map<string, EvaluationRow>();
  const touchedPayouts = new Map<string, string>();
  const approvedPayouts = new Set<string>();
  const lateOverpayments: Overpayment[] = [];
  for (const event of policyEvents) {
    const next = evolve(policies.get(event.data.policy_id), event);
    if (!next) continue;
    policies.set(event.data.policy_id, next);
    changed.set(event.data.policy_id, next);
    const evaluation = evaluationRow(event, next.aggregate);
    if (evaluation) evaluations.set(evaluationKey(evaluation.evaluation_id, evaluation.peril), evaluation);
    if (event.type === 'PayoutApproved' || event.type === 'PayoutSettled') {
      touchedPayouts.set(event.data.payout_id, event.data.policy_id);
    }
    if (event.type === 'PayoutApproved') approvedPayouts.add(event.data.payout_id);
    if (event.type === 'PayoutOverpaymentRecorded') {
      const row = evaluations.get(evaluationKey(event.data.evaluation_id, event.data.peril));
      if (row) Object.assign(row, overpaymentColumns(event.data));
      else lateOverpayments.push(event.data);
    }
  }
  const payouts = [...touchedPayouts].map(([payoutId, policyId]) =>
    policyPayoutRow(changed.get(policyId)!.aggregate, payoutId),
  );
  const lateLinks: PayoutRow[] = [];
  for (const payout of payouts) {
    const evaluation = evaluations.get(evaluationKey(payout.evaluation_id, payout.peril));
    if (evaluation) evaluation.payout_id = payout.payout_id;
    else if (approvedPayouts.has(payout.payout_id)) lateLinks.push(payout);
  }
  const written = await upsertPolicies(trx, [...changed.values()]);
  // Each count moves from the row as this transaction read it (under the lock) to the row it wrote.
  await applyPolicyCountChanges(
    trx,
    policyCountChanges(
      [...changed]
        .filter(([policyId]) => written.has(policyId))
        .map(([policyId, policy]) => ({ before: before.get(policyId)?.aggregate, after: policy.aggregate })),
    ),
  );
  await insertEvaluations(trx, [...evaluations.values()]);
  await upsertPayouts(trx, payouts);
  await linkPayouts(trx, lateLinks);
  await showOverpayments(trx, lateOverpayments);
};

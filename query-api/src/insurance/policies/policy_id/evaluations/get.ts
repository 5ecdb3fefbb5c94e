import { actorOf } from '@cropcover/application';
import {
  EvaluationHistory,
  EvaluationHistoryQuery,
  type PayoutOverpayment,
  PolicyPathParams,
  type TriggerEvaluationHistoryItem,
  UNKNOWN_POLICY,
} from '@cropcover/contracts';
import { toMajorUnits } from '@cropcover/domain';
import { calendarDateOf } from '@cropcover/read-store';
import { queryRoute } from '../../../../query-route';
import { isoTimestamp } from '../../../../timestamps';
import { POLICY_READERS, readVisiblePolicy } from '../../../visible-policy';

const overpaymentOnTheWire = (
  paidMinor: number,
  dueMinor: number,
  currency: string,
  recordedAt: Date,
): PayoutOverpayment => ({
  amount_paid: toMajorUnits(paidMinor, currency),
  amount_due: toMajorUnits(dueMinor, currency),
  difference: toMajorUnits(paidMinor - dueMinor, currency),
  currency,
  recorded_at: isoTimestamp(recordedAt),
});

/** Endpoint 7: one item per peril per live evaluation,
 *  newest first, with the payout that peril got in that evaluation and the overpayment it recorded. */
export const listEvaluations = queryRoute('GET /insurance/policies/{policy_id}/evaluations', {
  summary: 'Evaluation history, newest first (endpoint 7)',
  roles: POLICY_READERS,
  request: { params: PolicyPathParams, query: EvaluationHistoryQuery },
  success: { status: 200, schema: EvaluationHistory, description: 'A page of history' },
  problems: { 404: UNKNOWN_POLICY },
}).handle(async ({ deps, params: { policy_id }, query: { page, page_size }, principal }) => {
  await readVisiblePolicy(deps.db, policy_id, actorOf(principal));
  const ofPolicy = deps.db.selectFrom('policy_evaluations as e').where('e.policy_id', '=', policy_id);
  const [rows, counted] = await Promise.all([
    ofPolicy
      .leftJoin('policy_payouts as p', 'p.payout_id', 'e.payout_id')
      .select((eb) => [
        'e.evaluation_id',
        'e.peril',
        'e.trigger_index',
        'e.observed_value',
        'e.threshold',
        'e.breached',
        'e.severity',
        calendarDateOf(eb.ref('e.as_of')).as('as_of'),
        calendarDateOf(eb.ref('e.window_start')).as('window_start'),
        calendarDateOf(eb.ref('e.window_end')).as('window_end'),
        'e.evaluated_at',
        'e.days_with_reading',
        'e.days_in_window',
        'e.phases',
        'p.payout_id',
        'p.amount_minor',
        'p.currency',
        'p.status as payout_status',
        'p.settled_at',
        'e.overpayment_paid_minor',
        'e.overpayment_due_minor',
        'e.overpayment_currency',
        'e.overpayment_recorded_at',
      ])
      .orderBy('e.evaluated_at', 'desc')
      .orderBy('e.peril')
      .limit(page_size)
      .offset((page - 1) * page_size)
      .execute(),
    ofPolicy.select((eb) => eb.fn.countAll<bigint>().as('total')).executeTakeFirstOrThrow(),
  ]);
  const items = rows.map(
    (row): TriggerEvaluationHistoryItem => ({
      evaluation_id: row.evaluation_id,
      peril: row.peril as TriggerEvaluationHistoryItem['peril'],
      trigger_index: row.trigger_index as TriggerEvaluationHistoryItem['trigger_index'],
      observed_value: row.observed_value,
      threshold: row.threshold,
      breached: row.breached,
      severity: row.severity,
      as_of: row.as_of,
      window_start: row.window_start,
      window_end: row.window_end,
      evaluated_at: isoTimestamp(row.evaluated_at),
      // Recorded only since TriggerEvaluated carries it: an older evaluation shows none.
      ...(row.days_with_reading === null || row.days_in_window === null
        ? {}
        : { coverage: { days_with_reading: row.days_with_reading, days_in_window: row.days_in_window } }),
      // Only a cover of several phases has them.
      ...(row.phases === null ? {} : { phases: row.phases }),
      ...(row.payout_id === null || row.amount_minor === null || row.currency === null || row.payout_status === null
        ? {}
        : {
            payout: {
              payout_id: row.payout_id,
              amount: toMajorUnits(Number(row.amount_minor), row.currency),
              currency: row.currency,
              status: row.payout_status,
              ...(row.settled_at === null ? {} : { settled_at: isoTimestamp(row.settled_at) }),
            },
          }),
      ...(row.overpayment_paid_minor === null ||
      row.overpayment_due_minor === null ||
      row.overpayment_currency === null ||
      row.overpayment_recorded_at === null
        ? {}
        : {
            overpayment: overpaymentOnTheWire(
              Number(row.overpayment_paid_minor),
              Number(row.overpayment_due_minor),
              row.overpayment_currency,
              row.overpayment_recorded_at,
            ),
          }),
    }),
  );
  return { policy_id, items, total: Number(counted.total), page, page_size };
});

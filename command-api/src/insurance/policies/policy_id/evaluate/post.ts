import { backtestEvaluation, liveEvaluation } from '@cropcover/application';
import { EvaluateRequest, EvaluationResult, PolicyPathParams, UNKNOWN_POLICY } from '@cropcover/contracts';
import { evaluationKind, utcDate } from '@cropcover/domain';
import { commandContextOf } from '../../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../../command-route';
import { isKeyed, newResourceId } from '../../../../idempotency/resource-id';
import { awaitReadModels } from '../../../../read-your-writes';

/** Endpoint 5: today (or no as_of) evaluates live and may pay; a date before today is a backtest that
 *  records nothing; a later date is refused. */
export const evaluatePolicyRoute = commandRoute('POST /insurance/policies/{policy_id}/evaluate', {
  summary: 'Evaluate the triggers now, or as of a past date as a backtest (endpoint 5)',
  roles: ['insurer'],
  request: { params: PolicyPathParams, body: EvaluateRequest, bodyRequired: false },
  success: { status: 200, schema: EvaluationResult, description: 'The evaluation' },
  problems: {
    404: UNKNOWN_POLICY,
    409: { description: 'concurrency_conflict: retry', codes: KEPT_CHANGING.codes },
    422: {
      description: 'as_of_in_future, policy_not_evaluable, policy_closed',
      codes: ['as_of_in_future', 'policy_not_evaluable', 'policy_closed'],
    },
  },
}).handle(async ({ deps, params: { policy_id }, body: { as_of }, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  if (as_of !== undefined && evaluationKind(as_of, utcDate(context.now)) === 'backtest')
    return backtestEvaluation(deps, context, policy_id, as_of);
  // A keyed evaluation is named after its key, so a retry after a crash answers with what it recorded.
  const evaluationId = isKeyed(res) ? newResourceId(res) : undefined;
  const { result, position } = await liveEvaluation(deps, context, policy_id, { evaluationId });
  await awaitReadModels(deps.readYourWrites, res, position);
  return result;
});

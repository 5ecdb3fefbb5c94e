import { backtestEvaluation, liveEvaluation } from '@cropcover/application';
import { EvaluateRequest, PolicyPathParams } from '@cropcover/contracts';
import { evaluationKind, utcDate } from '@cropcover/domain';
import { parseBody, parseParams } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { CommandApiDeps } from '../../../../command-api-deps';
import { commandContextOf } from '../../../../command-context';
import { isKeyed, newResourceId } from '../../../../idempotency/resource-id';
import { awaitReadModels } from '../../../../read-your-writes';
import { requireInsurer } from '../../../insurer';

/** POST /insurance/policies/{policy_id}/evaluate — endpoint 5: today (or no as_of) evaluates live and
 *  may pay; a date before today is a backtest that records nothing; a later date is refused. */
export const evaluatePolicyRoute =
  (deps: CommandApiDeps): RequestHandler =>
  async (req, res) => {
    const context = commandContextOf(req, deps.clock.now());
    requireInsurer(context.principal);
    const { policy_id } = parseParams(PolicyPathParams, req);
    const { as_of } = parseBody(EvaluateRequest, req);
    if (as_of !== undefined && evaluationKind(as_of, utcDate(context.now)) === 'backtest') {
      res.json(await backtestEvaluation(deps, context, policy_id, as_of));
      return;
    }
    // A keyed evaluation is named after its key, so a retry after a crash answers with what it recorded.
    const evaluationId = isKeyed(res) ? newResourceId(res) : undefined;
    const { result, position } = await liveEvaluation(deps, context, policy_id, { evaluationId });
    await awaitReadModels(deps.readYourWrites, res, position);
    res.json(result);
  };

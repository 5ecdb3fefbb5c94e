import {
  PortfolioBacktestJob,
  PortfolioBacktestRequest,
  ProgrammePathParams,
  UNKNOWN_PROGRAMME,
} from '@cropcover/contracts';
import { backtestJobView, canActForOrganization, DomainError, utcDate } from '@cropcover/domain';
import { loadProgramme, recordBacktestRequest } from '@cropcover/read-store';
import { commandContextOf } from '../../../../command-context';
import { commandRoute } from '../../../../command-route';
import { newResourceId } from '../../../../idempotency/resource-id';

/** SPEC §7 "Portfolio backtest": what the book in force would have lost in each of the last N seasons, as
 *  a job a monitor runs (it reads every policy and zone of the book); the answer says where to follow it.
 *  It records the request only: nothing of the book changes. */
export const requestPortfolioBacktestRoute = commandRoute('POST /insurance/programmes/{programme_id}/backtests', {
  summary: 'Ask for the as-if backtest of the book in force over the last N seasons (a job)',
  roles: ['insurer'],
  request: { params: ProgrammePathParams, body: PortfolioBacktestRequest, bodyRequired: false },
  success: { status: 202, schema: PortfolioBacktestJob, description: 'Queued; follow it at Location' },
  problems: {
    404: UNKNOWN_PROGRAMME,
    422: { description: 'as_of_in_future', codes: ['as_of_in_future'] },
  },
}).handle(async ({ deps, params: { programme_id }, body, req, res, refuse }) => {
  const context = commandContextOf(req, deps.clock.now());
  const programme = await loadProgramme(deps.db, programme_id);
  if (programme === undefined || !canActForOrganization(context.actor, programme.organization_id))
    throw new DomainError('not_found', 'programme_not_found', `No programme ${programme_id} is visible to you.`);
  const today = utcDate(context.now);
  const asOf = body.as_of ?? today;
  if (asOf > today) throw refuse('as_of_in_future', `as_of ${asOf} is after today (${today})`);
  const request = {
    job_id: newResourceId(res),
    programme_id,
    organization_id: programme.organization_id,
    seasons: body.seasons,
    as_of: asOf,
    perils: body.perils ?? null,
    apply_treaties: body.apply_treaties,
    requested_at: context.now,
  };
  // A keyed retry finds its first run's request already there.
  await recordBacktestRequest(deps.db, request);
  res.location(`/insurance/programmes/${programme_id}/backtests/${request.job_id}`);
  return backtestJobView({ ...request, run: null });
});

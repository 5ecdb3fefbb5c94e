import { actorOf } from '@cropcover/application';
import { BacktestJobPathParams, PortfolioBacktestJob, UNKNOWN_BACKTEST } from '@cropcover/contracts';
import { backtestJobView, canActForOrganization } from '@cropcover/domain';
import { loadBacktestJob } from '@cropcover/read-store';
import { ProblemError } from '@cropcover/runtime';
import { queryRoute } from '../../../../../query-route';
import { readVisibleProgramme } from '../../../visible-programme';

/** SPEC §7 "Portfolio backtest": the job's status, and its result once done. The insurer's alone, as the
 *  results per period: its net is the book through every treaty. */
export const getPortfolioBacktest = queryRoute('GET /insurance/programmes/{programme_id}/backtests/{job_id}', {
  summary: 'Follow an as-if backtest of a programme: queued, running, then its result',
  roles: ['insurer'],
  request: { params: BacktestJobPathParams },
  success: { status: 200, schema: PortfolioBacktestJob, description: 'The job' },
  problems: { 404: UNKNOWN_BACKTEST },
}).handle(async ({ deps, params: { programme_id, job_id }, principal }) => {
  const actor = actorOf(principal);
  const programme = await readVisibleProgramme(deps.db, programme_id, actor);
  const job = canActForOrganization(actor, programme.organization_id)
    ? await loadBacktestJob(deps.db, programme_id, job_id)
    : undefined;
  if (job === undefined)
    throw new ProblemError({
      status: 404,
      code: 'backtest_not_found',
      title: 'Not Found',
      detail: `No backtest ${job_id} of programme ${programme_id}.`,
    });
  return backtestJobView(job);
});

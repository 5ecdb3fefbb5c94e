import { actorOf } from '@cropcover/application';
import { ProgrammePathParams, ProgrammeResults, ProgrammeResultsQuery, UNKNOWN_PROGRAMME } from '@cropcover/contracts';
import { periodNamed, programmeResults } from '@cropcover/domain';
import { loadPeriodFigures } from '@cropcover/read-store';
import { queryRoute } from '../../../../query-route';
import { readVisibleProgramme } from '../../visible-programme';

/** SPEC §7: gross, ceded and net of a period (default: this calendar year). The insurer's alone: it shows
 *  every treaty, and a reinsurer reads only its own. */
export const getProgrammeResults = queryRoute('GET /insurance/programmes/{programme_id}/results', {
  summary: 'Gross, ceded and net premium and claims of a programme for a period (YYYY or from..to)',
  roles: ['insurer'],
  request: { params: ProgrammePathParams, query: ProgrammeResultsQuery },
  success: { status: 200, schema: ProgrammeResults, description: 'The period figures' },
  problems: { 404: UNKNOWN_PROGRAMME },
}).handle(async ({ deps, params: { programme_id }, query, principal }) => {
  const programme = await readVisibleProgramme(deps.db, programme_id, actorOf(principal));
  const period = periodNamed(query.period, deps.clock.now().toISOString().slice(0, 10));
  const figures = await loadPeriodFigures(deps.db, programme_id, period);
  return programmeResults(programme_id, programme.currency, period, figures);
});

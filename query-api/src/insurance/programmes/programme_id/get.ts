import { actorOf } from '@cropcover/application';
import { Programme, ProgrammePathParams, UNKNOWN_PROGRAMME } from '@cropcover/contracts';
import { queryRoute } from '../../../query-route';
import { PROGRAMME_READERS, programmeOf, readVisibleProgramme } from '../visible-programme';

export const getProgramme = queryRoute('GET /insurance/programmes/{programme_id}', {
  summary: 'A programme with its aggregate limit and capacity rules',
  roles: PROGRAMME_READERS,
  request: { params: ProgrammePathParams },
  success: { status: 200, schema: Programme, description: 'The programme' },
  problems: { 404: UNKNOWN_PROGRAMME },
}).handle(async ({ deps, params: { programme_id }, principal }) =>
  programmeOf(await readVisibleProgramme(deps.db, programme_id, actorOf(principal))),
);

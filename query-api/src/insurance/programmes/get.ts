import { actorOf } from '@cropcover/application';
import { ProgrammeList, ProgrammeListQuery } from '@cropcover/contracts';
import { holdsRole } from '@cropcover/domain';
import { listProgrammes } from '@cropcover/read-store';
import { queryRoute } from '../../query-route';
import { PROGRAMME_READERS, programmeOf } from './visible-programme';

/** The organization's programmes; for a reinsurer, also those its treaties cover. */
export const listProgrammesRoute = queryRoute('GET /insurance/programmes', {
  summary: "The organization's programmes, and for a reinsurer those its treaties cover",
  roles: PROGRAMME_READERS,
  request: { query: ProgrammeListQuery },
  success: { status: 200, schema: ProgrammeList, description: 'A page of programmes' },
}).handle(async ({ deps, query, organizationId, principal }) => {
  const { items, total } = await listProgrammes(
    deps.db,
    { organizationId, asReinsurer: holdsRole(actorOf(principal), 'reinsurer') },
    query,
  );
  return { items: items.map(programmeOf), total, page: query.page, page_size: query.page_size };
});

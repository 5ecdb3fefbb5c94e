import { Climatology, ClimatologyPathParams, ClimatologyQuery } from '@cropcover/contracts';
import { queryRoute } from '../../../../../query-route';
import { SOURCE_READERS } from '../../../index-source-view';
import { CLIMATOLOGY_READ_RULES, climatologyView } from '../climatology-view';

/** INDEX-DATA §3: the latest version of a climatology. */
export const getClimatology = queryRoute('GET /insurance/index-sources/{source_id}/climatologies/{name}', {
  summary: 'The latest version of a climatology of the source',
  description: CLIMATOLOGY_READ_RULES,
  roles: SOURCE_READERS,
  request: { params: ClimatologyPathParams, query: ClimatologyQuery },
  success: { status: 200, schema: Climatology, description: 'The latest version' },
  problems: { 404: { description: 'No version of that name on the source', codes: ['climatology_not_found'] } },
}).handle(async ({ deps, params: { source_id, name }, query, refuse }) => {
  const view = await climatologyView(deps.db, source_id, name, undefined, query);
  if (view === undefined) throw refuse('climatology_not_found', `No climatology ${name} of source ${source_id}.`);
  return view;
});

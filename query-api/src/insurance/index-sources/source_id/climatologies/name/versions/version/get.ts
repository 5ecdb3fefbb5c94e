import { Climatology, ClimatologyQuery, ClimatologyVersionPathParams } from '@cropcover/contracts';
import { queryRoute } from '../../../../../../../query-route';
import { SOURCE_READERS } from '../../../../../index-source-view';
import { CLIMATOLOGY_READ_RULES, climatologyView } from '../../../climatology-view';

/** INDEX-DATA §3: one version of a climatology, as it was computed and ever will be. */
export const getClimatologyVersion = queryRoute(
  'GET /insurance/index-sources/{source_id}/climatologies/{name}/versions/{version}',
  {
    summary: 'One version of a climatology of the source',
    description: CLIMATOLOGY_READ_RULES,
    roles: SOURCE_READERS,
    request: { params: ClimatologyVersionPathParams, query: ClimatologyQuery },
    success: { status: 200, schema: Climatology, description: 'The version' },
    problems: { 404: { description: 'No such version', codes: ['climatology_not_found'] } },
  },
).handle(async ({ deps, params: { source_id, name, version }, query, refuse }) => {
  const view = await climatologyView(deps.db, source_id, name, version, query);
  if (view === undefined)
    throw refuse('climatology_not_found', `No version ${version} of climatology ${name} of source ${source_id}.`);
  return view;
});

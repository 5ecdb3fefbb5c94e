import { IndexSource, IndexSourcePathParams } from '@cropcover/contracts';
import { queryRoute } from '../../../query-route';
import { indexSourceView, SOURCE_READERS } from '../index-source-view';

/** One source, whoever registered it. */
export const getIndexSource = queryRoute('GET /insurance/index-sources/{source_id}', {
  summary: 'One index source, whoever registered it',
  roles: SOURCE_READERS,
  request: { params: IndexSourcePathParams },
  success: { status: 200, schema: IndexSource, description: 'The source' },
  problems: { 404: { description: 'No such index source', codes: ['not_found'] } },
}).handle(async ({ deps, params: { source_id }, refuse }) => {
  const row = await deps.db
    .selectFrom('index_sources')
    .selectAll()
    .where('source_id', '=', source_id)
    .executeTakeFirst();
  if (!row) throw refuse('not_found', `No index source ${source_id}.`);
  return indexSourceView(row);
});

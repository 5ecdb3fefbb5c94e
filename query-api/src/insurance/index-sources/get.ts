import { IndexSourceList, IndexSourcesQuery } from '@cropcover/contracts';
import { queryRoute } from '../../query-route';
import { indexSourceView, SOURCE_READERS } from './index-source-view';

/** Every organization's sources, newest first, source_id breaking ties;
 *  filters combine with AND. */
export const listIndexSources = queryRoute('GET /insurance/index-sources', {
  summary: "Every organization's index sources, newest first; filters combine with AND",
  roles: SOURCE_READERS,
  request: { query: IndexSourcesQuery },
  success: { status: 200, schema: IndexSourceList, description: 'A page of sources' },
}).handle(async ({ deps, query: { page, page_size, index, kind, organization_id } }) => {
  let scope = deps.db.selectFrom('index_sources');
  if (index !== undefined) scope = scope.where('index', '=', index);
  if (kind !== undefined) scope = scope.where('kind', '=', kind);
  if (organization_id !== undefined) scope = scope.where('organization_id', '=', organization_id);
  const [rows, { total }] = await Promise.all([
    scope
      .selectAll()
      .orderBy('registered_at', 'desc')
      .orderBy('source_id')
      .limit(page_size)
      .offset((page - 1) * page_size)
      .execute(),
    scope.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(indexSourceView), total: Number(total), page, page_size };
});

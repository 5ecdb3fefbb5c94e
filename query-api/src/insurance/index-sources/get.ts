import { type IndexSourceList, IndexSourcesQuery } from '@cropcover/contracts';
import { parseQuery, principalOf } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { QueryApiDeps } from '../../query-api-deps';
import { indexSourceView, requireSourceReader } from './index-source-view';

/** GET /insurance/index-sources — every organization's sources, newest first, source_id breaking ties;
 *  filters combine with AND. */
export const listIndexSources =
  (deps: QueryApiDeps): RequestHandler =>
  async (req, res) => {
    requireSourceReader(principalOf(req));
    const { page, page_size, index, kind, organization_id } = parseQuery(IndexSourcesQuery, req);
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
    const list: IndexSourceList = { items: rows.map(indexSourceView), total: Number(total), page, page_size };
    res.json(list);
  };

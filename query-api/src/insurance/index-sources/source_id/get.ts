import { IndexSourcePathParams } from '@cropcover/contracts';
import { ProblemError, parseParams, principalOf } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { QueryApiDeps } from '../../../query-api-deps';
import { indexSourceView, requireSourceReader } from '../index-source-view';

/** GET /insurance/index-sources/{source_id} — one source, whoever registered it. */
export const getIndexSource =
  (deps: QueryApiDeps): RequestHandler =>
  async (req, res) => {
    requireSourceReader(principalOf(req));
    const { source_id } = parseParams(IndexSourcePathParams, req);
    const row = await deps.db
      .selectFrom('index_sources')
      .selectAll()
      .where('source_id', '=', source_id)
      .executeTakeFirst();
    if (!row) throw ProblemError.notFound(`No index source ${source_id}.`);
    res.json(indexSourceView(row));
  };

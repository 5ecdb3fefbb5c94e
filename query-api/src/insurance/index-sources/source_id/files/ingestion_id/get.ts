import { IndexFileIngestion, IndexFilePathParams } from '@cropcover/contracts';
import { loadIndexFileIngestion } from '@cropcover/read-store';
import { queryRoute } from '../../../../../query-route';
import { SOURCE_READERS } from '../../../index-source-view';

/** How an ingested file went (INDEX-DATA.md §2.1): a job's progress, or what a file wrote. */
export const getIndexFileIngestion = queryRoute('GET /insurance/index-sources/{source_id}/files/{ingestion_id}', {
  summary: 'One ingestion of a file into an index source: its status and what it wrote',
  roles: SOURCE_READERS,
  request: { params: IndexFilePathParams },
  success: { status: 200, schema: IndexFileIngestion, description: 'The ingestion' },
  problems: { 404: { description: 'No such ingestion of the source', codes: ['not_found'] } },
}).handle(async ({ deps, params: { source_id, ingestion_id }, refuse }) => {
  const ingestion = await loadIndexFileIngestion(deps.db, source_id, ingestion_id);
  if (!ingestion) throw refuse('not_found', `No ingestion ${ingestion_id} of index source ${source_id}.`);
  return ingestion;
});

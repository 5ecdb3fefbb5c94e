import type { IndexFileIngestion } from '@cropcover/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { ReadModels } from '../read-models';
import type { IndexFileIngestionsTable } from '../schema/command-api/index-readings-tables';

/** An ingestion as `POST` and `GET …/index-sources/{id}/files/{ingestion_id}` show it. */
export const indexFileIngestionView = (row: Selectable<IndexFileIngestionsTable>): IndexFileIngestion => ({
  ingestion_id: row.ingestion_id,
  source_id: row.source_id,
  status: row.status,
  sha256: row.sha256,
  content_type: row.content_type,
  label: row.label,
  bytes: Number(row.bytes),
  periods: row.periods,
  locations: row.locations,
  cells_kept: row.kept,
  readings_written: row.readings_written,
  revisions_written: row.revisions_written,
  missing: row.missing,
  error: row.error,
  received_at: row.received_at.toISOString(),
  finished_at: row.finished_at?.toISOString() ?? null,
});

/** An ingestion of the source, or undefined. */
export const loadIndexFileIngestion = async (
  db: Kysely<ReadModels>,
  sourceId: string,
  ingestionId: string,
): Promise<IndexFileIngestion | undefined> => {
  const row = await db
    .selectFrom('index_file_ingestions')
    .selectAll()
    .where('source_id', '=', sourceId)
    .where('ingestion_id', '=', ingestionId)
    .executeTakeFirst();
  return row && indexFileIngestionView(row);
};

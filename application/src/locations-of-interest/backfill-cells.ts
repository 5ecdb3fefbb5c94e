import type { IndexFileMediaType } from '@cropcover/contracts';
import { keptValue, type RegisteredIndexSource, readingBoundsOf } from '@cropcover/domain';
import type { ReadModels } from '@cropcover/read-store';
import { type Kysely, sql } from 'kysely';
import { fileValues } from '../index-files/file-values';
import { indexFilePath } from '../index-files/stored-index-files';
import { recordIndexReadings, type SourceReading } from '../index-readings/record-index-readings';
import { takeSourceTurn } from './cells-of-interest';

// INDEX-DATA §2.2: a cell that becomes of interest is read from every grid file the source kept, in the
// order they were ingested, each value recorded as that ingestion recorded its cells (its label, its file's
// SHA-256, its requester), so what a backfill writes is what the ingestion would have written. Files an
// ingestion read whole before the source had any cell of interest already wrote the cell: only the files
// from the first that kept cells of interest on are read again.

export interface CellsBackfill {
  readonly source: RegisteredIndexSource;
  readonly cells: readonly string[];
  /** Where the kept files are: `DATA_DIR/index-files`. */
  readonly directory: string;
  readonly now: Date;
}

const BATCH = 5_000;

/** Makes the cells of interest and reads the history of those not yet held; the cells it backfilled.
 *  One transaction: a process that dies midway leaves nothing, and the next request backfills again. */
export const backfillCells = (db: Kysely<ReadModels>, { source, cells, directory, now }: CellsBackfill) =>
  db.transaction().execute(async (trx): Promise<string[]> => {
    await takeSourceTurn(trx, source.sourceId);
    await sql`
      insert into index_cells_of_interest (source_id, cell, since)
      select ${source.sourceId}, cell, ${now} from unnest(${[...cells]}::text[]) as cell
      on conflict (source_id, cell) do nothing`.execute(trx);
    const pending = (
      await trx
        .selectFrom('index_cells_of_interest')
        .select('cell')
        .where('source_id', '=', source.sourceId)
        .where('held_at', 'is', null)
        .where(sql<boolean>`cell = any(${[...cells]}::text[])`)
        .execute()
    ).map((row) => row.cell);
    if (pending.length === 0) return [];
    const ingestions = await trx
      .selectFrom('index_file_ingestions')
      .selectAll()
      .where('source_id', '=', source.sourceId)
      .where('status', '=', 'succeeded')
      .where('content_type', '<>', 'text/csv')
      .orderBy('received_at')
      .orderBy('ingestion_id')
      .execute();
    const firstKeeping = ingestions.findIndex((ingestion) => ingestion.kept === 'cells_of_interest');
    for (const ingestion of firstKeeping < 0 ? [] : ingestions.slice(firstKeeping)) {
      const reading = {
        mediaType: ingestion.content_type as IndexFileMediaType,
        dates: ingestion.dates ?? undefined,
        variable: ingestion.variable ?? undefined,
      };
      let readings: SourceReading[] = [];
      const write = async () => {
        await recordIndexReadings(trx, readings, now, ingestion.requested_by);
        readings = [];
      };
      for await (const batch of fileValues(source, indexFilePath(directory, ingestion.sha256), reading, pending)) {
        for (const { location, date, value } of batch) {
          if (value === null) continue;
          readings.push({
            sourceId: source.sourceId,
            location,
            index: source.index,
            date,
            value: keptValue(readingBoundsOf(source, date), value),
            note: null,
            label: ingestion.label,
            fileSha256: ingestion.sha256,
          });
        }
        if (readings.length >= BATCH) await write();
      }
      await write();
    }
    await trx
      .updateTable('index_cells_of_interest')
      .set({ held_at: now })
      .where('source_id', '=', source.sourceId)
      .where(sql<boolean>`cell = any(${pending}::text[])`)
      .execute();
    return pending;
  });

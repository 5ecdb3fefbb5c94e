import type { ReadModels } from '@cropcover/read-store';
import { sql, type Transaction } from 'kysely';

// The cells a grid source keeps (INDEX-DATA §2.2). An ingestion and a backfill of one source take turns
// on one lock, held to their commit: a cell becoming of interest while a file is ingested is then either
// seen by the ingestion or backfilled from that file after it commits, never missed by both.

/** Waits for the source's turn among its ingestions and backfills, until the transaction ends. */
export const takeSourceTurn = async (trx: Transaction<ReadModels>, sourceId: string): Promise<void> => {
  await sql`select pg_advisory_xact_lock(hashtext('cropcover.cells_of_interest'), hashtext(${sourceId}))`.execute(trx);
};

/** The cells the source keeps from a grid file: its cells of interest, or undefined (every cell) when it
 *  has none, as before locations of interest existed. */
export const cellsKept = async (trx: Transaction<ReadModels>, sourceId: string): Promise<string[] | undefined> => {
  const rows = await trx
    .selectFrom('index_cells_of_interest')
    .select('cell')
    .where('source_id', '=', sourceId)
    .execute();
  return rows.length === 0 ? undefined : rows.map((row) => row.cell);
};

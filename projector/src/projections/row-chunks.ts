/** Rows per multi-row statement: keeps statements far below PostgreSQL's 65,535 bind parameters, even
 *  for the widest read-model table, while still writing a batch in a handful of round trips. */
const ROWS_PER_STATEMENT = 1000;

export const inChunks = <T>(items: readonly T[], size = ROWS_PER_STATEMENT): T[][] => {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
};

import type { ReadReadingHistory } from '@cropcover/domain';
import { loadReadingHistory, type ReadModels } from '@cropcover/read-store';
import type { Kysely } from 'kysely';

/** The domain's ReadReadingHistory, filled from the read store's index readings. */
export const readingHistoryFrom =
  (db: Kysely<ReadModels>): ReadReadingHistory =>
  (query) =>
    loadReadingHistory(db, query);

import type { PolicyDataSources } from '@cropcover/contracts';
import type { ReadingHistory } from '@cropcover/domain';
import type { ReadModels } from '@cropcover/read-store';
import type { Kysely } from 'kysely';
import { readingHistoryFrom } from '../readings/reading-history';

/** Every reading each peril's data holds: the pricing picks the complete past seasons itself. Quote and
 *  issue both load through here, so they price on the same history. */
export const loadPricingHistory = (db: Kysely<ReadModels>, sources: PolicyDataSources): Promise<ReadingHistory> =>
  readingHistoryFrom(db)({ sources });

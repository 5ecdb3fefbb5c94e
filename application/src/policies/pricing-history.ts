import type { Peril } from '@cropcover/contracts';
import { PRODUCT_CATALOG, type ReadingHistory } from '@cropcover/domain';
import type { ReadModels } from '@cropcover/read-store';
import type { Kysely } from 'kysely';
import { readingHistoryFrom } from '../readings/reading-history';

export interface PricingHistoryQuery {
  readonly farmId: string;
  readonly fieldId: string;
  readonly perils: readonly Peril[];
}

/** Every reading the field has of the perils' indices: the pricing picks the complete past seasons
 *  itself. Quote and issue both load through here, so they price on the same history. */
export const loadPricingHistory = (db: Kysely<ReadModels>, query: PricingHistoryQuery): Promise<ReadingHistory> =>
  readingHistoryFrom(db)({
    farmId: query.farmId,
    fieldId: query.fieldId,
    indices: [...new Set(query.perils.map((peril) => PRODUCT_CATALOG.rules[peril].reading))],
  });

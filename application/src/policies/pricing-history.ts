import type { PolicyDataSources } from '@cropcover/contracts';
import type { ReadingHistory, ReadReadingHistory } from '@cropcover/domain';

/** Every reading each peril's data holds: the pricing picks the complete past seasons itself. Quote and
 *  issue both load through here, so they price on the same history. */
export const loadPricingHistory = (readings: ReadReadingHistory, sources: PolicyDataSources): Promise<ReadingHistory> =>
  readings({ sources });

import { actorOf, recordIndexReadings, refuseFutureReadings, sourceReadingsOf } from '@cropcover/application';
import { IndexReadingsRequest, IndexReadingsResponse } from '@cropcover/contracts';
import { utcDate } from '@cropcover/domain';
import { commandRoute } from '../../command-route';

/** A data provider's readings, all or nothing, upserted by (source, location, index, date). Reference data,
 *  not events: written straight to PostgreSQL. */
export const recordIndexReadingsRoute = commandRoute('POST /insurance/index-readings', {
  summary: 'Record index readings (up to 10,000, all or nothing; earlier values kept as revisions)',
  roles: ['data_provider'],
  request: { body: IndexReadingsRequest },
  success: { status: 200, schema: IndexReadingsResponse, description: 'Recorded' },
  problems: {
    403: { description: "not_source_owner: a reading of another organization's source", codes: ['not_source_owner'] },
    422: {
      description: 'reading_in_future, unknown_source, unknown_location',
      codes: ['reading_in_future', 'unknown_source', 'unknown_location'],
    },
  },
}).handle(async ({ deps, body: { readings }, principal, organizationId }) => {
  const now = deps.clock.now();
  refuseFutureReadings(readings, utcDate(now));
  const stored = await sourceReadingsOf(deps.eventStore, { ...actorOf(principal), organizationId }, readings);
  const recorded = await deps.db.transaction().execute((trx) => recordIndexReadings(trx, stored, now, principal.sub));
  return { accepted: readings.length, ...recorded };
});

import { actorOf, recordIndexReadings, refuseFutureReadings, sourceReadingsOf } from '@cropcover/application';
import { IndexReadingsRequest, type IndexReadingsResponse } from '@cropcover/contracts';
import { utcDate } from '@cropcover/domain';
import { parseBody, principalOf, requireRolesInOrganization } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { CommandApiDeps } from '../../command-api-deps';

/** POST /insurance/index-readings — a data provider's readings, all or nothing, upserted by (source,
 *  location, index, date). Reference data, not events: written straight to PostgreSQL. */
export const recordIndexReadingsRoute =
  (deps: CommandApiDeps): RequestHandler =>
  async (req, res) => {
    const principal = principalOf(req);
    const organizationId = requireRolesInOrganization(principal, 'data_provider');
    const { readings } = parseBody(IndexReadingsRequest, req);
    const now = deps.clock.now();
    refuseFutureReadings(readings, utcDate(now));
    const stored = await sourceReadingsOf(deps.eventStore, { ...actorOf(principal), organizationId }, readings);
    const recorded = await deps.db.transaction().execute((trx) => recordIndexReadings(trx, stored, now, principal.sub));
    const response: IndexReadingsResponse = { accepted: readings.length, ...recorded };
    res.json(response);
  };

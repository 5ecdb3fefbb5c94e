import { recordIndexReadings, refuseFutureReadings } from '@cropcover/application';
import { IndexReadingsRequest, type IndexReadingsResponse } from '@cropcover/contracts';
import { utcDate } from '@cropcover/domain';
import { parseBody, principalOf, requireRolesInOrganization } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { CommandApiDeps } from '../../command-api-deps';

/** POST /insurance/index-readings — a data provider's readings, all or nothing, upserted by
 *  (farm, field, index, date). Reference data, not events: written straight to PostgreSQL. */
export const recordIndexReadingsRoute =
  (deps: CommandApiDeps): RequestHandler =>
  async (req, res) => {
    requireRolesInOrganization(principalOf(req), 'data_provider');
    const { readings } = parseBody(IndexReadingsRequest, req);
    const now = deps.clock.now();
    refuseFutureReadings(readings, utcDate(now));
    const recorded = await deps.db.transaction().execute((trx) => recordIndexReadings(trx, readings, now));
    const response: IndexReadingsResponse = { accepted: readings.length, ...recorded };
    res.json(response);
  };

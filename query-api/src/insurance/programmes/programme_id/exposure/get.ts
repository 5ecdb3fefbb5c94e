import { actorOf } from '@cropcover/application';
import {
  ExposureQuery,
  type Peril,
  ProgrammeExposure,
  ProgrammePathParams,
  UNKNOWN_PROGRAMME,
} from '@cropcover/contracts';
import { toMajorUnits } from '@cropcover/domain';
import { type ExposurePage, loadExposure } from '@cropcover/read-store';
import { queryRoute } from '../../../../query-route';
import { PROGRAMME_READERS, readVisibleBookCurrency } from '../../visible-programme';

/** committed ÷ limit to 6 decimals, rounded half-up in integers as PostgreSQL rounds the zones'; 0 for a
 *  limit of 0 (nothing may be written there), null without a limit. */
const utilisation = (committedMinor: number, limitMinor: number | null): number | null => {
  if (limitMinor === null) return null;
  if (limitMinor === 0) return 0;
  const millionths = (BigInt(committedMinor) * 1_000_000n * 2n + BigInt(limitMinor)) / (2n * BigInt(limitMinor));
  return Number(millionths) / 1_000_000;
};

/** A default programme nothing was written to yet: no policy, no limit. */
const EMPTY_BOOK: ExposurePage = {
  totals: { policies: 0, sum_insured_minor: 0, premium_minor: 0, aggregate_limit_minor: null },
  items: [],
  total: 0,
};

/** SPEC §7 "Exposure": what the programme has written, by zone, peril or source, with its totals. */
export const getProgrammeExposure = queryRoute('GET /insurance/programmes/{programme_id}/exposure', {
  summary: "A programme's exposure by zone, peril or source: policies, sum insured, premium, capacity, utilisation",
  roles: PROGRAMME_READERS,
  request: { params: ProgrammePathParams, query: ExposureQuery },
  success: { status: 200, schema: ProgrammeExposure, description: 'A page of exposure groups and the totals' },
  problems: { 404: UNKNOWN_PROGRAMME },
}).handle(async ({ deps, params: { programme_id }, query, principal }) => {
  const currency = await readVisibleBookCurrency(deps.db, programme_id, actorOf(principal));
  const page = (await loadExposure(deps.db, programme_id, query)) ?? EMPTY_BOOK;
  const money = (minor: number) => toMajorUnits(minor, currency);
  const { totals } = page;
  return {
    programme_id,
    currency,
    group_by: query.group_by,
    totals: {
      policies: totals.policies,
      sum_insured: money(totals.sum_insured_minor),
      premium: money(totals.premium_minor),
      aggregate_limit: totals.aggregate_limit_minor === null ? null : money(totals.aggregate_limit_minor),
      utilisation: utilisation(totals.sum_insured_minor, totals.aggregate_limit_minor),
    },
    items: page.items.map((row) => ({
      ...(row.source_id === undefined ? {} : { source_id: row.source_id }),
      ...(row.location === undefined ? {} : { location: row.location }),
      ...(row.peril === undefined ? {} : { peril: row.peril as Peril }),
      policies: row.policies,
      sum_insured: money(row.sum_insured_minor),
      premium: money(row.premium_minor),
      capacity: row.capacity_minor === null ? null : money(row.capacity_minor),
      utilisation: row.utilisation === null ? null : Number(row.utilisation),
    })),
    total: page.total,
    page: query.page,
    page_size: query.page_size,
  };
});

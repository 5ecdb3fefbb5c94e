import { actorOf } from '@cropcover/application';
import {
  CessionLedger,
  CessionLedgerQuery,
  type LedgerEntryKind,
  type Peril,
  ProgrammePathParams,
  UNKNOWN_PROGRAMME,
} from '@cropcover/contracts';
import { canSeeTreaty, toMajorUnits } from '@cropcover/domain';
import { queryRoute } from '../../../../query-route';
import { PROGRAMME_READERS, readVisibleProgramme } from '../../visible-programme';

/** SPEC §7: the cession ledger in the order it was recorded; a reinsurer reads only its treaties' entries. */
export const listCessions = queryRoute('GET /insurance/programmes/{programme_id}/cessions', {
  summary: "A programme's cession ledger: premium and loss cessions and recoveries, in the order recorded",
  roles: PROGRAMME_READERS,
  request: { params: ProgrammePathParams, query: CessionLedgerQuery },
  success: { status: 200, schema: CessionLedger, description: 'A page of ledger entries' },
  problems: { 404: UNKNOWN_PROGRAMME },
}).handle(async ({ deps, params: { programme_id }, query, principal }) => {
  const actor = actorOf(principal);
  const programme = await readVisibleProgramme(deps.db, programme_id, actor);
  const treaties = await deps.db
    .selectFrom('treaties')
    .select(['treaty_id', 'organization_id', 'reinsurer_organization_id'])
    .where('programme_id', '=', programme_id)
    .execute();
  const visible = treaties.filter((treaty) => canSeeTreaty(actor, treaty)).map((treaty) => treaty.treaty_id);
  const money = (minor: bigint | number) => toMajorUnits(Number(minor), programme.currency);
  if (visible.length === 0) return { items: [], total: 0, page: query.page, page_size: query.page_size };
  let scope = deps.db
    .selectFrom('reinsurance_ledger')
    .where('programme_id', '=', programme_id)
    .where('treaty_id', 'in', visible);
  if (query.treaty_id !== undefined) scope = scope.where('treaty_id', '=', query.treaty_id);
  if (query.policy_id !== undefined) scope = scope.where('policy_id', '=', query.policy_id);
  const [rows, { total }] = await Promise.all([
    scope
      .selectAll()
      .orderBy('stream_revision')
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size)
      .execute(),
    scope.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((row) => ({
      entry_id: row.entry_id,
      treaty_id: row.treaty_id,
      kind: row.kind as LedgerEntryKind,
      source_event: row.source_event,
      policy_id: row.policy_id,
      zone:
        row.source_id === null || row.location === null ? null : { source_id: row.source_id, location: row.location },
      peril: row.peril as Peril | null,
      cat_event: row.cat_event,
      gross: money(row.gross_minor),
      cumulative_gross: money(row.cumulative_gross_minor),
      ceded: money(row.ceded_minor),
      cumulative_ceded: money(row.cumulative_ceded_minor),
      net: money(row.net_minor),
      recorded_at: new Date(row.recorded_at).toISOString(),
    })),
    total: Number(total),
    page: query.page,
    page_size: query.page_size,
  };
});

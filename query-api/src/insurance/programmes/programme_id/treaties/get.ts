import { actorOf } from '@cropcover/application';
import { ProgrammePathParams, TreatyList, UNKNOWN_PROGRAMME } from '@cropcover/contracts';
import { canSeeTreaty, treatyView } from '@cropcover/domain';
import { calendarDateOf } from '@cropcover/read-store';
import { queryRoute } from '../../../../query-route';
import { PROGRAMME_READERS, readVisibleProgramme } from '../../visible-programme';

/** The programme's treaties in the order they apply; a reinsurer sees only its own. */
export const listTreaties = queryRoute('GET /insurance/programmes/{programme_id}/treaties', {
  summary: "A programme's treaties in the order they apply (a reinsurer sees only its own)",
  roles: PROGRAMME_READERS,
  request: { params: ProgrammePathParams },
  success: { status: 200, schema: TreatyList, description: 'The treaties' },
  problems: { 404: UNKNOWN_PROGRAMME },
}).handle(async ({ deps, params: { programme_id }, principal }) => {
  const actor = actorOf(principal);
  const programme = await readVisibleProgramme(deps.db, programme_id, actor);
  const rows = await deps.db
    .selectFrom('treaties')
    .select(['treaty_id', 'organization_id', 'reinsurer_organization_id', 'inurance_order', 'terms', 'bound_at'])
    // As the 'YYYY-MM-DD' the contract says: node-postgres would make each a Date, sent as a timestamp.
    .select((eb) => [
      calendarDateOf(eb.ref('period_from')).as('period_from'),
      calendarDateOf(eb.ref('period_to')).as('period_to'),
    ])
    .where('programme_id', '=', programme_id)
    .orderBy('inurance_order')
    .execute();
  return {
    items: rows
      .filter((row) => canSeeTreaty(actor, row))
      .map((row) =>
        treatyView({
          treaty_id: row.treaty_id,
          programme_id,
          currency: programme.currency,
          period: { from: row.period_from, to: row.period_to },
          reinsurer_organization_id: row.reinsurer_organization_id,
          inurance_order: row.inurance_order,
          terms: row.terms,
          bound_at: new Date(row.bound_at).toISOString(),
        }),
      ),
  };
});

import { PolicyList, PolicyListQuery } from '@cropcover/contracts';
import { asLastCheckedOn, policyListItem } from '@cropcover/domain';
import { calendarDateOf, type ReadModels } from '@cropcover/read-store';
import { type Kysely, sql } from 'kysely';
import { queryRoute } from '../../query-route';
import { POLICY_READERS } from '../visible-policy';

type Filters = Omit<PolicyListQuery, 'page' | 'page_size'> & { organizationId: string };

const matching = (db: Kysely<ReadModels>, { organizationId, status, farm_id, peril }: Filters) => {
  let query = db.selectFrom('policies').where('organization_id', '=', organizationId);
  if (status !== undefined) query = query.where('status', '=', status);
  if (farm_id !== undefined) query = query.where('farm_id', '=', farm_id);
  if (peril !== undefined) query = query.where(sql<boolean>`perils @> array[${peril}]::text[]`);
  return query;
};

/** The page's rows in list order. The page is chosen from the list index alone (it includes every filter
 *  column), and only its own rows are read from the table: a deep page skips index entries, not rows. */
const pageOf = (db: Kysely<ReadModels>, filters: Filters, page: number, pageSize: number) =>
  db
    .selectFrom('policies')
    .innerJoin(
      matching(db, filters)
        .select(['policy_id', 'issued_at'])
        .orderBy('issued_at', 'desc')
        .orderBy('policy_id')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .as('page'),
      'page.policy_id',
      'policies.policy_id',
    )
    .leftJoin('policy_monitor_rounds as rounds', 'rounds.policy_id', 'policies.policy_id')
    .select('policies.aggregate')
    .select((eb) => calendarDateOf(eb.ref('rounds.checked_on')).as('checked_on'))
    .orderBy('page.issued_at', 'desc')
    .orderBy('page.policy_id')
    .execute();

/** Every policy matching the filters. Without farm_id, a sum over policy_counts (a few dozen rows per
 *  organization) rather than a count over all its policies; a farm has few policies, so with farm_id the
 *  rows are counted from the farm's index range. */
const totalOf = async (db: Kysely<ReadModels>, filters: Filters): Promise<number> => {
  if (filters.farm_id !== undefined) {
    const { total } = await matching(db, filters)
      .select((eb) => eb.fn.countAll<bigint>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(total);
  }
  let counts = db.selectFrom('policy_counts').where('organization_id', '=', filters.organizationId);
  if (filters.status !== undefined) counts = counts.where('status', '=', filters.status);
  if (filters.peril !== undefined) counts = counts.where(sql<boolean>`perils @> array[${filters.peril}]::text[]`);
  const { total } = await counts
    // sum(bigint) is numeric, which node-postgres returns as a string.
    .select(sql<string>`coalesce(sum(policies), 0)`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(total);
};

/** Endpoint 2: the caller's organization's policies, newest first. Admins too see only their own
 *  organization here (SPEC §4: lists only ever show the caller's organization). */
export const listPolicies = queryRoute('GET /insurance/policies', {
  summary: "The organization's policies (endpoint 2), newest first; filters combine with AND",
  roles: POLICY_READERS,
  request: { query: PolicyListQuery },
  success: { status: 200, schema: PolicyList, description: 'A page of policies' },
}).handle(async ({ deps, query: { page, page_size, ...filters }, organizationId }) => {
  const scope: Filters = { ...filters, organizationId };
  const [rows, total] = await Promise.all([pageOf(deps.db, scope, page, page_size), totalOf(deps.db, scope)]);
  return {
    items: rows.map((row) => policyListItem(asLastCheckedOn(row.aggregate, row.checked_on))),
    total,
    page,
    page_size,
  };
});

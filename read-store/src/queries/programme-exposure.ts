import type { ExposureGrouping, ExposureSort } from '@cropcover/contracts';
import { type Kysely, sql } from 'kysely';
import type { ReadModels } from '../read-models';

/** One group of a programme's exposure, in minor units; utilisation as PostgreSQL's numeric text. */
export interface ExposureRow {
  readonly source_id?: string;
  readonly location?: string;
  readonly peril?: string;
  readonly policies: number;
  readonly sum_insured_minor: number;
  readonly premium_minor: number;
  readonly capacity_minor: number | null;
  readonly utilisation: string | null;
}

export interface ExposurePage {
  readonly totals: {
    readonly policies: number;
    readonly sum_insured_minor: number;
    readonly premium_minor: number;
    readonly aggregate_limit_minor: number | null;
  };
  readonly items: readonly ExposureRow[];
  /** How many groups there are. */
  readonly total: number;
}

const ORDER: Record<ExposureSort, string> = {
  utilisation_desc: 'utilisation desc nulls last',
  sum_insured_desc: 'sum_insured_minor desc',
  policies_desc: 'policies desc',
};

/** The groups as one derived table: zones as projected; perils and sources summed over their rows (a
 *  policy's sum insured counts once per zone, so a source sums its zones), without a capacity of their own. */
const groupsOf = (programmeId: string, groupBy: ExposureGrouping) => {
  const summed = sql`sum(policies)::int as policies, sum(sum_insured_minor) as sum_insured_minor,
    sum(premium_minor) as premium_minor, null::bigint as capacity_minor, null::numeric as utilisation`;
  if (groupBy === 'zone') {
    return sql`select source_id, location, policies, sum_insured_minor, premium_minor, capacity_minor, utilisation
      from programme_zone_exposure where programme_id = ${programmeId}`;
  }
  if (groupBy === 'peril') {
    return sql`select peril, ${summed} from programme_zone_peril_exposure where programme_id = ${programmeId}
      group by peril`;
  }
  return sql`select source_id, ${summed} from programme_zone_exposure where programme_id = ${programmeId}
    group by source_id`;
};

/** A page of a programme's exposure grouped by zone, peril or source, sorted as asked (ties by the group's
 *  key), and the programme's totals (each policy once); undefined when there is no such programme. */
export const loadExposure = async (
  db: Kysely<ReadModels>,
  programmeId: string,
  query: {
    readonly group_by: ExposureGrouping;
    readonly sort: ExposureSort;
    readonly page: number;
    readonly page_size: number;
  },
): Promise<ExposurePage | undefined> => {
  const programme = await db
    .selectFrom('programmes')
    .select(['policies', 'sum_insured_minor', 'premium_minor', 'aggregate_limit_minor'])
    .where('programme_id', '=', programmeId)
    .executeTakeFirst();
  if (programme === undefined) return undefined;
  const keys = query.group_by === 'zone' ? 'source_id, location' : query.group_by === 'peril' ? 'peril' : 'source_id';
  const groups = groupsOf(programmeId, query.group_by);
  const { rows } = await sql<ExposureRow & { readonly groups: string }>`
    select g.*, count(*) over () as groups from (${groups}) g
    order by ${sql.raw(ORDER[query.sort])}, ${sql.raw(keys)}
    limit ${query.page_size} offset ${(query.page - 1) * query.page_size}`.execute(db);
  const total =
    rows[0] !== undefined
      ? Number(rows[0].groups)
      : Number((await sql<{ n: string }>`select count(*) as n from (${groups}) g`.execute(db)).rows[0]!.n);
  return {
    totals: {
      policies: programme.policies,
      sum_insured_minor: Number(programme.sum_insured_minor),
      premium_minor: Number(programme.premium_minor),
      aggregate_limit_minor: programme.aggregate_limit_minor === null ? null : Number(programme.aggregate_limit_minor),
    },
    items: rows.map(({ groups: _groups, ...row }) => ({
      ...row,
      policies: Number(row.policies),
      sum_insured_minor: Number(row.sum_insured_minor),
      premium_minor: Number(row.premium_minor),
      capacity_minor: row.capacity_minor === null ? null : Number(row.capacity_minor),
    })),
    total,
  };
};

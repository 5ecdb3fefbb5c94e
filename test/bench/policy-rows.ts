import { policyStory } from '@cropcover/projector/testing';
import pg from 'pg';

// Policies inserted straight into the read model in one statement, for benchmarks of the reads: each row a
// copy of a real aggregate (issued by the domain) with its own id, farm, status and issue time; the
// per-status counts the projection keeps are computed from them. Every copy reads the template's data
// (the organization's own readings of farm-1/north).

export const PERIL_SETS = [
  ['drought', 'flood'],
  ['flood', 'storm'],
  ['drought', 'vegetation_stress'],
  ['drought', 'flood', 'vegetation_stress', 'storm'],
] as const;

export interface PolicyRows {
  readonly policies: number;
  readonly organization: string;
  readonly farms: number;
  readonly termStart: string;
  readonly termEnd: string;
}

/** Policies `pol-0000001`…, 70 % active and 10 % each claimed, lapsed and expired, one issued every 5
 *  minutes from 2025-01-01, the peril sets in turn. */
export const insertPolicyRows = async (
  databaseUrl: string,
  { policies, organization, farms, termStart, termEnd }: PolicyRows,
): Promise<void> => {
  const templates = PERIL_SETS.map(
    (perils) =>
      policyStory({
        policyId: 'template',
        organizationId: organization,
        perils,
        termStart,
        termEnd,
        // Four days before the term, at 08:00 UTC: a term may start at most 7 days before its issue.
        issuedAt: new Date(Date.parse(`${termStart}T08:00:00.000Z`) - 4 * 86_400_000).toISOString(),
      }).state,
  );
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `with template as (
         select ordinality - 1 as k, aggregate from unnest($1::jsonb[]) with ordinality as t(aggregate)
       ), generated as (
         select i, 'pol-' || lpad(i::text, 7, '0') as policy_id, 'farm-' || (i % $3) as farm_id,
           (array['active','active','active','active','active','active','active','claimed','lapsed','expired'])[i % 10 + 1]
             as status,
           timestamptz '2025-01-01T00:00:00Z' + i * interval '5 minutes' as issued_at,
           t.aggregate
         from generate_series(1, $2::int) as i join template t on t.k = i % $4
       )
       insert into policies (policy_id, organization_id, environment, farm_id, field_id, farm_name, field_name,
         field_area_ha, field_location, crop_type, sum_insured_minor, currency, premium_minor, perils, status,
         issued_at, term_start, term_end, platform_version, next_monitoring_date, aggregate, stream_revision)
       select policy_id, $5, 'sandbox', farm_id, 'north', 'Shamba', 'North plot', 2.5, '-1.29,36.82', 'maize',
         (aggregate->'issued'->>'sum_insured_minor')::bigint, 'KES', (aggregate->'issued'->>'premium_minor')::bigint,
         array(select jsonb_array_elements_text(aggregate->'issued'->'perils')), status, issued_at,
         $6::date, $7::date, 'bench', null,
         jsonb_set(jsonb_set(jsonb_set(jsonb_set(aggregate,
           '{issued,policy_id}', to_jsonb(policy_id)),
           '{issued,farm_id}', to_jsonb(farm_id)),
           '{issued,issued_at}', to_jsonb(to_char(issued_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
           '{status}', to_jsonb(status)),
         0
       from generated`,
      [
        templates.map((template) => JSON.stringify(template)),
        policies,
        farms,
        templates.length,
        organization,
        termStart,
        termEnd,
      ],
    );
    // The projection keeps these counts; rows inserted by hand need them too.
    await client.query(
      `insert into policy_counts (organization_id, status, perils, policies)
       select organization_id, status, array(select unnest(perils) order by 1), count(*)
       from policies group by 1, 2, 3`,
    );
    await client.query('vacuum analyze policies');
  } finally {
    await client.end();
  }
};

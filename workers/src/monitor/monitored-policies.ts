import type { ReadModels } from '@cropcover/read-store';
import { type Kysely, sql } from 'kysely';

/** Policies the monitor has work for on `today`: those due an evaluation, and active or claimed ones
 *  not closed yet whose settlement period is over, to close. The read model may lag the log, so this is
 *  a work list only: each policy is checked again against its stream. */
export const monitoredPolicies = async (db: Kysely<ReadModels>, today: string): Promise<string[]> => {
  const rows = await db
    .selectFrom('policies')
    .select('policy_id')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', 'in', ['active', 'claimed']), eb('next_monitoring_date', '<=', today)]),
        eb.and([
          eb('status', 'in', ['active', 'claimed']),
          eb('next_monitoring_date', 'is', null),
          sql<boolean>`aggregate ->> 'closedAt' is null`,
          sql<boolean>`term_end + (aggregate -> 'issued' ->> 'settlement_period_days')::integer <= ${today}::date`,
        ]),
      ]),
    )
    .orderBy('policy_id')
    .execute();
  return rows.map((row) => row.policy_id);
};

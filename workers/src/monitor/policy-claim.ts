import type { ReadModels } from '@cropcover/read-store';
import { type Kysely, sql } from 'kysely';

export type Claimed<T> = { readonly claimed: true; readonly value: T } | { readonly claimed: false };

/** Runs `work` while this monitor holds the policy's advisory lock; another monitor instance holding it
 *  means the policy is being monitored right now, so this one leaves it (`claimed: false`). The lock is
 *  the transaction's, so it goes with the commit, or with the connection if the process dies. Two ids
 *  sharing a hash only make one of them wait for the next tick. */
export const withPolicyClaim = <T>(
  db: Kysely<ReadModels>,
  policyId: string,
  work: () => Promise<T>,
): Promise<Claimed<T>> =>
  db.transaction().execute(async (trx): Promise<Claimed<T>> => {
    const { rows } = await sql<{ claimed: boolean }>`
      select pg_try_advisory_xact_lock(hashtext('cropcover.policy_monitor'), hashtext(${policyId})) as claimed`.execute(
      trx,
    );
    if (!rows[0]?.claimed) return { claimed: false };
    return { claimed: true, value: await work() };
  });

import type { ReadModels } from '@cropcover/read-store';
import { type Kysely, sql } from 'kysely';

/** How long a claimed batch stays reserved to its monitor. A monitor that dies mid-batch leaves leases
 *  that run out, and the next pass of any monitor takes those policies again. A batch taking longer than
 *  this may see a policy evaluated twice, which pays nothing twice (appends expect a revision). */
export const POLICY_LEASE_MS = 120_000;

export interface PolicyClaim {
  readonly today: string;
  readonly now: Date;
  readonly leaseId: string;
  /** Claims policies after this id only: a pass walks the list once, in id order. */
  readonly after: string;
  readonly limit: number;
}

export interface ClaimedBatch {
  /** The policies leased to this monitor, in id order. */
  readonly policyIds: readonly string[];
  /** The last due policy this claim looked at, leased here or by another monitor; undefined when none
   *  was left after `after`: the pass is over. */
  readonly lastDue: string | undefined;
}

/** Leases the next due policies nobody else holds and that no round has finished today, in one statement
 *  that commits before any of them is worked on: no transaction stays open while a policy is evaluated,
 *  and no row of the projector's is locked. The conflict clause makes a claim exclusive: of two monitors
 *  claiming the same policies at once, the second waits for the first's commit and leases none of them,
 *  then moves past them, so monitors share the list instead of walking it twice. Due means what the
 *  policies read model says; it may lag, so each policy is checked again against its stream. */
export const claimDuePolicies = async (
  db: Kysely<ReadModels>,
  { today, now, leaseId, after, limit }: PolicyClaim,
): Promise<ClaimedBatch> => {
  const leasedUntil = new Date(now.getTime() + POLICY_LEASE_MS);
  const { rows } = await sql<{ last_due: string | null; claimed: string[] }>`
    with due as (
      select p.policy_id from policies p
      where p.policy_id > ${after}
        and p.status in ('active', 'claimed')
        and (
          p.next_monitoring_date <= ${today}::date
          or (
            p.next_monitoring_date is null
            and p.aggregate ->> 'closedAt' is null
            and p.term_end + (p.aggregate -> 'issued' ->> 'settlement_period_days')::integer <= ${today}::date
          )
        )
        and not exists (
          select 1 from policy_monitor_rounds r
          where r.policy_id = p.policy_id and (r.checked_on >= ${today}::date or r.leased_until > ${now})
        )
      order by p.policy_id
      limit ${limit}
    ), claimed as (
      insert into policy_monitor_rounds (policy_id, lease_id, leased_until)
      select policy_id, ${leaseId}, ${leasedUntil} from due
      on conflict (policy_id) do update set lease_id = excluded.lease_id, leased_until = excluded.leased_until
        where (policy_monitor_rounds.checked_on is null or policy_monitor_rounds.checked_on < ${today}::date)
          and (policy_monitor_rounds.leased_until is null or policy_monitor_rounds.leased_until <= ${now})
      returning policy_id
    )
    select (select max(policy_id) from due) as last_due,
      array(select policy_id from claimed order by policy_id) as claimed`.execute(db);
  const row = rows[0]!;
  return { policyIds: row.claimed, lastDue: row.last_due ?? undefined };
};

/** Records today's round of these policies as finished and gives their leases back. */
export const finishRounds = async (
  db: Kysely<ReadModels>,
  policyIds: readonly string[],
  today: string,
  leaseId: string,
): Promise<void> => {
  if (policyIds.length === 0) return;
  await db
    .updateTable('policy_monitor_rounds')
    .set({ checked_on: today, lease_id: null, leased_until: null })
    .where('policy_id', 'in', policyIds)
    .where('lease_id', '=', leaseId)
    .execute();
};

/** Gives leases back unfinished (the policy failed, or the monitor is stopping): the next pass takes them. */
export const releaseLeases = async (
  db: Kysely<ReadModels>,
  policyIds: readonly string[],
  leaseId: string,
): Promise<void> => {
  if (policyIds.length === 0) return;
  await db
    .updateTable('policy_monitor_rounds')
    .set({ lease_id: null, leased_until: null })
    .where('policy_id', 'in', policyIds)
    .where('lease_id', '=', leaseId)
    .execute();
};

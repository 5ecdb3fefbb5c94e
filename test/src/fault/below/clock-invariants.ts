import type { RecordedEvent } from '@cropcover/eventstore';
import type pg from 'pg';
import type { Told } from './insurance-workload';

// What a stepped clock must not change (SPEC §10 Clocks), checked from outside: the days the log and the
// monitor's ledger say were evaluated, against the database's own day, and the payouts against what the
// readings give.

type Data = RecordedEvent & { data: Record<string, any> };
const EVALUATIONS = new Set(['TriggerEvaluated', 'TriggerEvaluationSkipped', 'TriggerBreached']);

/** Days evaluated, or recorded as checked by the monitor, that have not begun by the database's clock:
 *  a round done for tomorrow is a round tomorrow's real one skips. */
export const daysAhead = async (pool: pg.Pool, log: readonly RecordedEvent[]): Promise<string[]> => {
  const { rows } = await pool.query<{ today: string }>(`select (now() at time zone 'utc')::date::text as today`);
  const today = rows[0]!.today;
  const ahead = (log as Data[])
    .filter((event) => EVALUATIONS.has(event.type) && event.data.as_of > today)
    .map((event) => `${event.type} of ${event.data.policy_id} as of ${event.data.as_of}`);
  const { rows: days } = await pool.query<{ policy_id: string; checked_on: string; ledger: string }>(
    `select policy_id, checked_on::text, 'monitored day' as ledger from policy_monitor_days where checked_on > $1::date
     union all
     select policy_id, checked_on::text, 'round' from policy_monitor_rounds where checked_on > $1::date`,
    [today],
  );
  return [...ahead, ...days.map((day) => `${day.ledger} of ${day.policy_id} checked on ${day.checked_on}`)];
};

/** Payouts of the log whose amount is not what the readings give. Every policy of the workload has the
 *  same terms and the same storm, so every payout is the amount the clients were told. */
export const payoutsChanged = (log: readonly RecordedEvent[], told: Told): string[] => {
  const amounts = new Set(told.payouts.map((payout) => payout.amountMinor));
  if (amounts.size !== 1) return [`the clients were told ${amounts.size} different amounts: ${[...amounts]}`];
  const [amount] = amounts;
  return (log as Data[])
    .filter((event) => event.type === 'PayoutApproved' && event.data.amount_minor !== amount)
    .map((event) => `payout of ${event.data.policy_id}: ${event.data.amount_minor}, not ${amount}`);
};

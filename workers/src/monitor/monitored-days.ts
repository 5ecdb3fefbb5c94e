import type { PolicyEvent } from '@cropcover/contracts';
import { monitoredPerilsOf, utcDate } from '@cropcover/domain';
import { monitoredPerilsToColumns, type ReadModels } from '@cropcover/read-store';
import { type Kysely, sql } from 'kysely';

/** One policy's monitored day, as its round evaluated it. */
export interface MonitoredDay {
  readonly policyId: string;
  readonly evaluationId: string;
  readonly evaluatedAt: Date;
  readonly decidedOnRevision: number;
  readonly recorded: boolean;
  readonly decided: readonly PolicyEvent[];
}

/** Keeps the batch's monitored days in the round table, in one statement (SPEC §7 "What the log
 *  records": the days the log leaves out are kept here). A day kept already (a monitor that lost its
 *  lease and evaluated again) keeps its first row; the second evaluation, decided on the first's
 *  outcome, concluded nothing the first had not, or the log holds it. */
export const keepMonitoredDays = async (db: Kysely<ReadModels>, days: readonly MonitoredDay[]): Promise<void> => {
  if (days.length === 0) return;
  // One JSON parameter, as the snapshots are written: one statement whatever the batch.
  const rows = days.map((day) => ({
    policy_id: day.policyId,
    checked_on: utcDate(day.evaluatedAt),
    evaluation_id: day.evaluationId,
    evaluated_at: day.evaluatedAt.toISOString(),
    stream_revision: day.decidedOnRevision,
    recorded: day.recorded,
    ...monitoredPerilsToColumns(monitoredPerilsOf(day.decided)),
  }));
  // Digests come as hex and are kept as bytes, in their perils' order.
  await sql`
    insert into policy_monitor_days
      (policy_id, checked_on, evaluation_id, evaluated_at, stream_revision, recorded, perils, digests)
    select policy_id, checked_on, evaluation_id, evaluated_at, stream_revision, recorded, perils,
      array(select decode(hex, 'hex') from json_array_elements_text(digests) with ordinality as d(hex, i) order by i)
    from json_to_recordset(${JSON.stringify(rows)}::json) as day(policy_id text, checked_on date,
      evaluation_id text, evaluated_at timestamptz, stream_revision integer, recorded boolean, perils json,
      digests json)
    on conflict (policy_id, checked_on) do nothing`.execute(db);
};

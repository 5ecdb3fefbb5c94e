import { isDeepStrictEqual } from 'node:util';
import type { Peril, PerilDataSource, PolicyEvent } from '@cropcover/contracts';
import {
  evaluatePolicy,
  type MonitoredPeril,
  monitoredPerilsOf,
  type Policy,
  policyAggregate,
  policyDataSources,
  policyStream,
  type ReadingHistory,
  repeatsLatestConclusion,
} from '@cropcover/domain';
import { monitoredPerilsFromColumns } from '@cropcover/read-store';
import type { CommandDeps } from '../command-deps';
import { decodeEvent } from '../decode-event';
import { loadDataSourceSeries } from './data-source-series';

/** One monitored day replayed for the audit (SPEC §7 "What the log records"). */
export interface MonitoredDayReplay {
  readonly evaluationId: string;
  readonly evaluatedAt: Date;
  readonly streamRevision: number;
  /** Whether the log recorded the day's evaluation, as the round table says. */
  readonly recorded: boolean;
  /** The perils as the round table kept them. */
  readonly kept: readonly MonitoredPeril[];
  /** The perils as the decider concludes them again, on the stream up to the revision the day was decided
   *  on and the readings as they stood at its evaluation (the revisions kept). */
  readonly replayed: readonly MonitoredPeril[];
  /** The replay observed what was kept, from the same readings (digests included). */
  readonly matches: boolean;
  /** The replay concludes something new exactly when the log recorded the day. */
  readonly recordedAsConcluded: boolean;
}

/** Replays one monitored day of a policy from its round table row, its stream and the readings as they
 *  stood then; undefined when the monitor kept no such day. A day the log recorded replays the same way,
 *  on the stream before its own events. */
export const replayMonitoredDay = async (
  { db, eventStore }: CommandDeps,
  policyId: string,
  day: string,
): Promise<MonitoredDayReplay | undefined> => {
  const row = await db
    .selectFrom('policy_monitor_days')
    .selectAll()
    .where('policy_id', '=', policyId)
    .where('checked_on', '=', day)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const recorded = await eventStore.readStream(policyStream(policyId));
  const state = recorded
    .filter((event) => event.revision <= row.stream_revision)
    .map((event) => decodeEvent(event) as PolicyEvent)
    .reduce(policyAggregate.evolve, policyAggregate.initial as Policy);
  if (state.status === 'not_issued') return undefined;
  const evaluatedAt = new Date(row.evaluated_at);
  const readings: ReadingHistory = {};
  for (const [peril, data] of Object.entries(policyDataSources(state)) as [Peril, PerilDataSource][]) {
    readings[peril] = await loadDataSourceSeries(db, data, {
      from: state.issued.term_start,
      to: state.issued.term_end,
      asOf: evaluatedAt,
    });
  }
  const actor = { subject: 'system:audit', organizationId: state.issued.organization_id, isAdmin: false };
  const decided = evaluatePolicy({ actor, evaluationId: row.evaluation_id, readings, now: evaluatedAt }, state);
  const replayed = monitoredPerilsOf(decided);
  const kept = monitoredPerilsFromColumns(row.perils, row.digests);
  return {
    evaluationId: row.evaluation_id,
    evaluatedAt,
    streamRevision: row.stream_revision,
    recorded: row.recorded,
    kept,
    replayed,
    matches: isDeepStrictEqual(replayed, kept),
    recordedAsConcluded: row.recorded === !repeatsLatestConclusion(state, decided),
  };
};

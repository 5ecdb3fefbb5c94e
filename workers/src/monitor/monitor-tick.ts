import { sharedReadingHistory } from '@cropcover/application';
import { sharedPerilAssessor, utcDate } from '@cropcover/domain';
import type { Clock, Logger } from '@cropcover/runtime';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import type { PolicyMonitorDeps } from './monitor-deps';
import type { MonitorMetrics } from './monitor-metrics';
import { monitorPolicy } from './monitor-policy';
import { keepMonitoredDays, type MonitoredDay } from './monitored-days';
import { claimDuePolicies, finishRounds, releaseLeases } from './policy-claim';
import { keepPolicySnapshots, type PolicyAtRevision, readPolicySnapshots } from './policy-snapshots';

/** Policies worked on at once. Each holds a pooled connection only for one statement at a time, so 8
 *  keeps two cores busy (profile: the one-at-a-time monitor was idle on round trips) and leaves the
 *  pool's other connections to whatever else the process serves. */
export const DEFAULT_MONITOR_CONCURRENCY = 8;
/** Policies leased per claim: one statement per this many policies, short enough to finish in a lease. */
export const DEFAULT_MONITOR_BATCH = 200;

export interface MonitorTickOptions {
  readonly deps: PolicyMonitorDeps;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: MonitorMetrics;
  /** Asked before each policy: a stopping monitor finishes the policies in hand and takes no other. */
  readonly isStopping?: () => boolean;
  readonly concurrency?: number;
  readonly batchSize?: number;
}

export interface MonitorTick {
  /** Live evaluations made, recorded or not. */
  readonly evaluated: number;
  /** Of those, evaluations that repeated the policy's last one and appended nothing. */
  readonly unchanged: number;
  readonly closed: number;
  readonly failed: number;
}

/** One pass over the policies with work today: claims them in leased batches, works through each batch
 *  a few policies at a time, on readings the pass reads once per series and trigger outcomes it works
 *  out once per series, terms and day, loading each policy from its
 *  snapshot, and keeping the batch's monitored days (recorded in the log or not) and the snapshots it
 *  moved on in one statement each. A policy that fails is logged
 *  and counted, and the others go on; its lease is given back and the next pass tries it again. */
export const runMonitorTick = async ({
  deps,
  clock,
  logger,
  metrics,
  isStopping = () => false,
  concurrency = DEFAULT_MONITOR_CONCURRENCY,
  batchSize = DEFAULT_MONITOR_BATCH,
}: MonitorTickOptions): Promise<MonitorTick> => {
  const tickId = uuidv7();
  const leaseId = uuidv4();
  const dailyRound = { readReadings: sharedReadingHistory(deps.db), assessor: sharedPerilAssessor() };
  const tally = { evaluated: 0, unchanged: 0, closed: 0, failed: 0 };
  let after = '';
  while (!isStopping()) {
    // The day is the pass's clock reading at each claim, so a pass running over midnight moves on to it.
    const now = clock.now();
    const today = utcDate(now);
    const claim = await claimDuePolicies(deps.db, { today, now, leaseId, after, limit: batchSize });
    if (claim.lastDue === undefined) break;
    after = claim.lastDue;
    const batch = claim.policyIds;
    const snapshots = await readPolicySnapshots(deps.db, batch);
    const moved: PolicyAtRevision[] = [];
    const days: MonitoredDay[] = [];
    const finished: string[] = [];
    const unfinished: string[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let at = next++; at < batch.length; at = next++) {
        const policyId = batch[at]!;
        if (isStopping()) {
          unfinished.push(policyId);
          continue;
        }
        try {
          const snapshot = snapshots.get(policyId);
          const outcome = await monitorPolicy(deps, policyId, now, tickId, dailyRound, snapshot);
          finished.push(policyId);
          const { state, expected, position } = outcome.stream;
          if (typeof expected === 'number' && position !== undefined && expected !== snapshot?.revision)
            moved.push({ policyId, snapshot: { state, revision: expected, position }, replaces: snapshot?.revision });
          if (outcome.round !== undefined) days.push({ policyId, recorded: !outcome.unchanged, ...outcome.round });
          if (outcome.evaluated) {
            tally.evaluated += 1;
            metrics.evaluated.inc();
          }
          if (outcome.unchanged) {
            tally.unchanged += 1;
            metrics.unchanged.inc();
          }
          if (outcome.closed) {
            tally.closed += 1;
            metrics.closed.inc();
          }
        } catch (error) {
          unfinished.push(policyId);
          tally.failed += 1;
          metrics.failed.inc();
          logger.error({ err: error, policy_id: policyId, tick_id: tickId }, 'policy monitoring failed');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, batch.length) }, worker));
    // The days first: a round is finished only once its day is kept.
    await keepMonitoredDays(deps.db, days);
    await finishRounds(deps.db, finished, today, leaseId);
    await keepPolicySnapshots(deps.db, moved);
    await releaseLeases(deps.db, unfinished, leaseId);
  }
  if (tally.evaluated + tally.closed + tally.failed > 0)
    logger.info({ tick_id: tickId, ...tally }, 'policy monitor tick');
  return tally;
};

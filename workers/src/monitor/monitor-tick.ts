import { utcDate } from '@cropcover/domain';
import type { Clock, Logger } from '@cropcover/runtime';
import { v7 as uuidv7 } from 'uuid';
import type { PolicyMonitorDeps } from './monitor-deps';
import type { MonitorMetrics } from './monitor-metrics';
import { monitorPolicy } from './monitor-policy';
import { monitoredPolicies } from './monitored-policies';
import { withPolicyClaim } from './policy-claim';

export interface MonitorTickOptions {
  readonly deps: PolicyMonitorDeps;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: MonitorMetrics;
  /** Asked before each policy: a stopping monitor finishes the policy in hand and takes no other. */
  readonly isStopping?: () => boolean;
}

export interface MonitorTick {
  readonly evaluated: number;
  readonly closed: number;
  readonly failed: number;
  /** Policies another monitor instance was working on. */
  readonly skipped: number;
}

/** One pass over the policies with work today. A policy that fails is logged and counted, and the
 *  others go on; it is still due, so the next tick tries it again. */
export const runMonitorTick = async ({
  deps,
  clock,
  logger,
  metrics,
  isStopping = () => false,
}: MonitorTickOptions): Promise<MonitorTick> => {
  const tickId = uuidv7();
  const tally = { evaluated: 0, closed: 0, failed: 0, skipped: 0 };
  for (const policyId of await monitoredPolicies(deps.db, utcDate(clock.now()))) {
    if (isStopping()) break;
    try {
      const claim = await withPolicyClaim(deps.db, policyId, () => monitorPolicy(deps, policyId, clock.now(), tickId));
      if (!claim.claimed) {
        tally.skipped += 1;
        continue;
      }
      if (claim.value.evaluated) {
        tally.evaluated += 1;
        metrics.evaluated.inc();
      }
      if (claim.value.closed) {
        tally.closed += 1;
        metrics.closed.inc();
      }
    } catch (error) {
      tally.failed += 1;
      metrics.failed.inc();
      logger.error({ err: error, policy_id: policyId, tick_id: tickId }, 'policy monitoring failed');
    }
  }
  if (tally.evaluated + tally.closed + tally.failed > 0)
    logger.info({ tick_id: tickId, ...tally }, 'policy monitor tick');
  return tally;
};

import type { Clock, Logger } from '@cropcover/runtime';
import type { Registry } from 'prom-client';
import type { PolicyMonitorDeps } from './monitor-deps';
import { createMonitorMetrics } from './monitor-metrics';
import { runMonitorTick } from './monitor-tick';

/** Due dates are calendar days, so a minute between passes starts a day's work soon after midnight UTC
 *  while an idle pass costs one indexed query. */
export const DEFAULT_MONITOR_INTERVAL_MS = 60_000;

export interface PolicyMonitorOptions {
  readonly deps: PolicyMonitorDeps;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Pause between the end of one pass and the start of the next. */
  readonly intervalMs?: number;
  /** Where the evaluated / closed / failed counters go. */
  readonly metricsRegistry?: Registry;
}

export interface PolicyMonitor {
  /** Finishes the policy in hand, then returns; no pass starts after it. */
  stop(): Promise<void>;
}

/** The monitor job (SPEC §7): a pass at once, then one every interval, never two at a time in this
 *  process. Any number of processes may run it; policy claims keep them from evaluating a policy twice. */
export const startPolicyMonitor = ({
  deps,
  clock,
  logger,
  intervalMs = DEFAULT_MONITOR_INTERVAL_MS,
  metricsRegistry,
}: PolicyMonitorOptions): PolicyMonitor => {
  const metrics = createMonitorMetrics(metricsRegistry);
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> = Promise.resolve();
  const runPass = (): void => {
    pass = runMonitorTick({ deps, clock, logger, metrics, isStopping: () => stopping })
      .then(
        () => undefined,
        // The work list could not be read (database away): the next pass tries again.
        (error: unknown) => logger.error({ err: error }, 'policy monitor pass failed'),
      )
      .finally(() => {
        if (!stopping) timer = setTimeout(runPass, intervalMs);
      });
  };
  runPass();
  return {
    stop: async () => {
      stopping = true;
      clearTimeout(timer);
      await pass;
    },
  };
};

import { Counter, type Registry } from 'prom-client';

export interface MonitorMetrics {
  readonly evaluated: Counter;
  readonly unchanged: Counter;
  readonly closed: Counter;
  readonly failed: Counter;
}

/** The monitor's counters, on the process registry when given (one monitor per registry). */
export const createMonitorMetrics = (registry?: Registry): MonitorMetrics => {
  const registers = registry ? [registry] : [];
  return {
    evaluated: new Counter({
      name: 'policy_monitor_policies_evaluated_total',
      help: 'Live evaluations the policy monitor made.',
      registers,
    }),
    unchanged: new Counter({
      name: 'policy_monitor_evaluations_unchanged_total',
      help: "Live evaluations that repeated the policy's last one, so appended nothing.",
      registers,
    }),
    closed: new Counter({
      name: 'policy_monitor_policies_closed_total',
      help: 'Policies the monitor closed at term end plus their settlement period (finality).',
      registers,
    }),
    failed: new Counter({
      name: 'policy_monitor_policies_failed_total',
      help: 'Policies whose monitoring failed; they are tried again on the next tick.',
      registers,
    }),
  };
};

import { addDays, laterDate, utcDate } from '../insurance/calendar/calendar-date';
import { closingDate } from './close-policy';
import type { IssuedPolicy } from './policy';

export const DEFAULT_MONITORING_INTERVAL_DAYS = 1;

/** The policy as of the monitor's last round of it: a round whose evaluation repeated the last recorded
 *  one appends nothing (repeated-evaluation.ts), so the day it ran is in the monitor's own record, not the
 *  stream, and the next monitoring date counts from whichever is later. */
export const asLastCheckedOn = (policy: IssuedPolicy, checkedOn: string | null): IssuedPolicy =>
  checkedOn !== null && (policy.lastMonitoredOn === null || checkedOn > policy.lastMonitoredOn)
    ? { ...policy, lastMonitoredOn: checkedOn }
    : policy;

/** The next day the monitor evaluates the policy: the day after issue, then every `intervalDays` after
 *  the last live evaluation; never before term start (an empty window has nothing to check). Monitoring
 *  goes on through the settlement period so late readings still count; undefined once it is over or the
 *  policy lapsed or closed. */
export const nextMonitoringDate = (
  policy: IssuedPolicy,
  intervalDays: number = DEFAULT_MONITORING_INTERVAL_DAYS,
): string | undefined => {
  if (policy.closedAt !== null || (policy.status !== 'active' && policy.status !== 'claimed')) return undefined;
  const due =
    policy.lastMonitoredOn === null
      ? addDays(utcDate(new Date(policy.issued.issued_at)), 1)
      : addDays(policy.lastMonitoredOn, intervalDays);
  const next = laterDate(due, policy.issued.term_start);
  return next < closingDate(policy) ? next : undefined;
};

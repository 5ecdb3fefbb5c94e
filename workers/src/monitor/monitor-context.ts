import type { CommandContext } from '@cropcover/application';

/** The subject the monitor's events carry as `actor`, so the log tells its evaluations from a user's. */
export const MONITOR_SUBJECT = 'system:monitor';

/** The monitor acts for the policy's own organization with no role and no admin rights: the policy
 *  deciders then treat it exactly like that organization's insurer, and it can touch no other tenant.
 *  One id per tick is both correlation and causation of everything that tick records. */
export const monitorContext = (organizationId: string, now: Date, tickId: string): CommandContext => ({
  principal: { sub: MONITOR_SUBJECT, organizationId, roles: [] },
  actor: { subject: MONITOR_SUBJECT, organizationId, isAdmin: false, roles: [] },
  requestId: tickId,
  correlationId: tickId,
  now,
});

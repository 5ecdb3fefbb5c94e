import type { CommandContext } from '../command-context';

/** An insurer of `org-1` issuing at `now`: the context application tests append policies in. */
export const underwriterContext = (now: Date): CommandContext => ({
  principal: { sub: 'underwriter', organizationId: 'org-1', roles: ['insurer'] },
  actor: { subject: 'underwriter', organizationId: 'org-1', isAdmin: false, roles: ['insurer'] },
  requestId: 'request-1',
  correlationId: 'correlation-1',
  now,
});

import type { CommandContext } from '@cropcover/application';
import { ADMIN_ROLE, principalOf, requestContextOf } from '@cropcover/runtime';
import type { Request } from 'express';

export const commandContextOf = (req: Request, now: Date): CommandContext => {
  const principal = principalOf(req);
  const { requestId, correlationId } = requestContextOf(req);
  return {
    principal,
    actor: {
      subject: principal.sub,
      organizationId: principal.organizationId,
      isAdmin: principal.roles.includes(ADMIN_ROLE),
    },
    requestId,
    correlationId,
    now,
  };
};

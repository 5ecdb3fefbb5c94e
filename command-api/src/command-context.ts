import type { Actor } from '@cropcover/domain';
import { ADMIN_ROLE, type Principal, principalOf, requestContextOf } from '@cropcover/runtime';
import type { Request } from 'express';

/** What every command knows about the request that carries it. */
export interface CommandContext {
  readonly principal: Principal;
  readonly actor: Actor;
  readonly requestId: string;
  readonly correlationId: string;
  readonly now: Date;
}

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

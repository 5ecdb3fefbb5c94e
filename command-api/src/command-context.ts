import { actorOf, type CommandContext } from '@cropcover/application';
import { principalOf, requestContextOf } from '@cropcover/runtime';
import type { Request } from 'express';

export const commandContextOf = (req: Request, now: Date): CommandContext => {
  const principal = principalOf(req);
  const { requestId, correlationId } = requestContextOf(req);
  return { principal, actor: actorOf(principal), requestId, correlationId, now };
};

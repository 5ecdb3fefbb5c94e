import type { ActorInRoles } from '@cropcover/domain';
import type { Principal } from '@cropcover/runtime';

/** What every command knows about whoever issued it — a request, or a worker acting for the platform. */
export interface CommandContext {
  readonly principal: Principal;
  readonly actor: ActorInRoles;
  readonly requestId: string;
  readonly correlationId: string;
  readonly now: Date;
}

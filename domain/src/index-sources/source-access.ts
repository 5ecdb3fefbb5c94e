import { type ActorInRoles, canActForOrganization, holdsRole } from '../actor';
import type { RegisteredIndexSource } from './index-source';

/** Whether the actor may write a source's readings: an admin, or a data provider of the organization that
 *  owns the source. An insurer of that organization may not: readings move payouts, so only the owner's
 *  data side writes them (SPEC §7, else 403 `not_source_owner`). */
export const canWriteReadings = (actor: ActorInRoles, source: Pick<RegisteredIndexSource, 'organizationId'>): boolean =>
  holdsRole(actor, 'data_provider') && canActForOrganization(actor, source.organizationId);

import type { IndexSourceEvent, IndexSourceRegisterRequest } from '@cropcover/contracts';
import { type ActorInRoles, holdsRole } from '../actor';
import { DomainError } from '../domain-error';
import type { IndexSourceState } from './index-source';

export interface RegisterIndexSource {
  readonly actor: ActorInRoles;
  readonly sourceId: string;
  readonly request: IndexSourceRegisterRequest;
  readonly now: Date;
}

/** The organization a source registered by the actor belongs to: only a data provider (or an admin)
 *  acting for an organization registers sources. The route asks before it reads the body, so a caller
 *  without the role gets 403 whatever it sent, as on every other insurance command. */
export const sourceOwnerFor = (actor: ActorInRoles): string => {
  if (!holdsRole(actor, 'data_provider')) {
    throw new DomainError('forbidden', 'forbidden', 'registering an index source needs the data_provider role');
  }
  if (actor.organizationId === null) {
    throw new DomainError('forbidden', 'organization_required', 'a source belongs to an organization (org_id)');
  }
  return actor.organizationId;
};

const definedOnly = <T extends object>(fields: T): Partial<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;

/** A data provider (or an admin) registers a source for its organization, which alone may then write the
 *  source's readings. */
export const registerIndexSource = (command: RegisterIndexSource, state: IndexSourceState): IndexSourceEvent[] => {
  const { actor, request } = command;
  const organizationId = sourceOwnerFor(actor);
  if (state.status === 'registered') {
    throw new DomainError('conflict', 'source_exists', `index source ${command.sourceId} already exists`);
  }
  return [
    {
      type: 'IndexSourceRegistered',
      data: {
        source_id: command.sourceId,
        organization_id: organizationId,
        name: request.name,
        index: request.index,
        kind: request.kind,
        stations: request.kind === 'station' ? request.stations : null,
        radius_km: request.kind === 'station' ? request.radius_km : null,
        resolution_deg: request.kind === 'grid' ? request.resolution_deg : null,
        // Descriptors are recorded only when given, so a source registered without them reads as before.
        ...definedOnly({
          unit: request.unit,
          currency: request.currency,
          cadence: request.cadence,
          sampling: request.kind === 'grid' ? request.sampling : undefined,
          product: request.product,
          model: request.model,
        }),
        registered_by: actor.subject,
        registered_at: command.now.toISOString(),
      },
    },
  ];
};

import type { ProgrammeCreateRequest, ProgrammeEvent } from '@cropcover/contracts';
import type { Actor } from '../actor';
import { DomainError } from '../domain-error';
import { toMinorUnits } from '../insurance/money/minor-units';
import { capacityRulesMinor } from './capacity-amounts';
import type { Programme } from './programme';

export interface CreateProgramme {
  readonly actor: Actor;
  readonly programmeId: string;
  readonly request: ProgrammeCreateRequest;
  readonly now: Date;
}

export const createProgramme = (command: CreateProgramme, state: Programme): ProgrammeEvent[] => {
  const organizationId = command.actor.organizationId;
  if (organizationId === null) {
    throw new DomainError('forbidden', 'organization_required', 'a programme needs an organization (org_id)');
  }
  if (state.status !== 'not_created') {
    throw new DomainError('conflict', 'programme_exists', `programme ${command.programmeId} already exists`);
  }
  const { request } = command;
  return [
    {
      type: 'ProgrammeCreated',
      data: {
        programme_id: command.programmeId,
        organization_id: organizationId,
        name: request.name,
        currency: request.currency,
        is_default: false,
        aggregate_limit_minor:
          request.aggregate_limit === undefined ? null : toMinorUnits(request.aggregate_limit, request.currency),
        capacity: capacityRulesMinor(request.capacity, request.currency),
        created_at: command.now.toISOString(),
      },
    },
  ];
};

import type { FarmEvent } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import type { Farm } from './farm';

export interface LinkFarmToOrganization {
  readonly organizationId: string;
  readonly now: Date;
}

/** On issue, the insurer's organization is linked to the farm once, so it may read the farm from then on. */
export const linkFarmToOrganization = (command: LinkFarmToOrganization, state: Farm): FarmEvent[] => {
  if (state.status !== 'registered') throw new DomainError('not_found', 'not_found', 'no such farm');
  if (state.organizations.some((link) => link.organization_id === command.organizationId)) return [];
  return [
    {
      type: 'FarmLinkedToOrganization',
      data: {
        farm_id: state.farmId,
        organization_id: command.organizationId,
        relationship: 'insurer',
        linked_at: command.now.toISOString(),
      },
    },
  ];
};

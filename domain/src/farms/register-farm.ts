import type { FarmAttributes, FarmEvent } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import type { Farm } from './farm';

export interface RegisterFarm {
  readonly farmId: string;
  readonly platformFarmId: string;
  readonly ownerFarmerId: string;
  readonly ownerSubject: string;
  readonly attributes: FarmAttributes;
  readonly now: Date;
}

export const registerFarm = (command: RegisterFarm, state: Farm): FarmEvent[] => {
  if (state.status === 'registered') {
    throw new DomainError('conflict', 'farm_exists', `farm ${command.farmId} already exists`);
  }
  return [
    {
      type: 'FarmRegistered',
      data: {
        farm_id: command.farmId,
        platform_farm_id: command.platformFarmId,
        owner_farmer_id: command.ownerFarmerId,
        owner_subject: command.ownerSubject,
        // Farms made through POST /farms/create belong to the farmer, not to any organization.
        registered_by_org_id: null,
        ...command.attributes,
        created_at: command.now.toISOString(),
      },
    },
  ];
};

import type { FarmEvent } from '@cropcover/contracts';
import type { Farm } from './farm';

export interface ClaimFarm {
  readonly ownerFarmerId: string;
  readonly subject: string;
  readonly now: Date;
}

/** The farmer who claimed their enrolled profile manages the farm enrolled with it from now on, like any
 *  owner: grants, revocations, changes. Already theirs, it records nothing. */
export const claimFarm = (command: ClaimFarm, state: Farm): FarmEvent[] => {
  if (state.status !== 'registered' || state.ownerFarmerId !== command.ownerFarmerId)
    throw new Error(`farm of enrolled farmer ${command.ownerFarmerId} is missing or owned by another`);
  if (state.ownerSubject === command.subject) return [];
  return [
    {
      type: 'FarmClaimed',
      data: {
        farm_id: state.farmId,
        owner_farmer_id: command.ownerFarmerId,
        owner_subject: command.subject,
        claimed_at: command.now.toISOString(),
      },
    },
  ];
};

import type { FarmerEvent } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import { laterTimestamp } from '../later-timestamp';
import type { Farmer } from './farmer';

export interface EraseFarmer {
  readonly erasedBy: 'farmer' | 'admin';
  readonly now: Date;
}

/** Erasure (SPEC §6): records `FarmerErased` once; asking again changes nothing. The key that opens the
 *  farmer's personal fields is destroyed beside it, by the command side. */
export const eraseFarmer = (command: EraseFarmer, state: Farmer): FarmerEvent[] => {
  if (state.status !== 'registered') {
    throw new DomainError('not_found', 'farmer_profile_not_found', 'no such farmer profile');
  }
  if (state.erasedAt !== undefined) return [];
  return [
    {
      type: 'FarmerErased',
      data: {
        farmer_id: state.farmerId,
        erased_at: laterTimestamp(command.now, state.updatedAt),
        erased_by: command.erasedBy,
      },
    },
  ];
};

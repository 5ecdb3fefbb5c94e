import type { FarmerEvent, FarmerProfileFields } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import { changedFields } from '../farms/changed-fields';
import { laterTimestamp } from '../later-timestamp';
import { type Farmer, onboardingStatusOf } from './farmer';

export interface UpdateFarmerProfile {
  readonly changes: Partial<FarmerProfileFields>;
  readonly now: Date;
}

export const updateFarmerProfile = (command: UpdateFarmerProfile, state: Farmer): FarmerEvent[] => {
  if (state.status !== 'registered') {
    throw new DomainError('not_found', 'farmer_profile_not_found', 'this user has no farmer profile yet');
  }
  if (state.erasedAt !== undefined) {
    throw new DomainError(
      'rejected',
      'farmer_erased',
      'this farmer profile was erased: it takes no more personal data',
    );
  }
  const changes = changedFields(state.profile, command.changes);
  if (Object.keys(changes).length === 0) return [];
  return [
    {
      type: 'FarmerProfileUpdated',
      data: {
        farmer_id: state.farmerId,
        changes,
        onboarding_status: onboardingStatusOf({ ...state.profile, ...changes }),
        updated_at: laterTimestamp(command.now, state.updatedAt),
      },
    },
  ];
};

import type { FarmerEvent, FarmerProfileFields } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import { type Farmer, onboardingStatusOf } from './farmer';

export interface RegisterFarmer {
  readonly farmerId: string;
  readonly subject: string;
  readonly platformFarmerId: string;
  readonly profile: FarmerProfileFields;
  readonly source: 'profile' | 'token_claims';
  readonly now: Date;
}

export const registerFarmer = (command: RegisterFarmer, state: Farmer): FarmerEvent[] => {
  if (state.status !== 'unregistered') {
    throw new DomainError('conflict', 'farmer_profile_exists', 'this user already has a farmer profile');
  }
  return [
    {
      type: 'FarmerRegistered',
      data: {
        farmer_id: command.farmerId,
        subject: command.subject,
        platform_farmer_id: command.platformFarmerId,
        ...command.profile,
        onboarding_status: onboardingStatusOf(command.profile),
        source: command.source,
        registered_at: command.now.toISOString(),
      },
    },
  ];
};

import type { FarmerEvent, FarmerProfileFields } from '@cropcover/contracts';
import { type Aggregate, streamName } from '../aggregate';

export type OnboardingStatus = 'pending' | 'completed';

export type Farmer =
  | { readonly status: 'unregistered' }
  | {
      readonly status: 'registered';
      readonly farmerId: string;
      readonly subject: string;
      readonly platformFarmerId: string;
      readonly profile: FarmerProfileFields;
      readonly onboardingStatus: OnboardingStatus;
      readonly createdAt: string;
      readonly updatedAt: string;
    };

export type RegisteredFarmer = Extract<Farmer, { status: 'registered' }>;

export const initialFarmer: Farmer = { status: 'unregistered' };

/** Onboarding is complete once both names are known and the farmer consented to share their data. */
export const onboardingStatusOf = (profile: FarmerProfileFields): OnboardingStatus =>
  profile.first_name.trim() !== '' && profile.last_name.trim() !== '' && profile.data_consent_given
    ? 'completed'
    : 'pending';

export const evolveFarmer = (state: Farmer, event: FarmerEvent): Farmer => {
  switch (event.type) {
    case 'FarmerRegistered': {
      const {
        farmer_id,
        subject,
        platform_farmer_id,
        onboarding_status,
        registered_at,
        source: _,
        ...profile
      } = event.data;
      return {
        status: 'registered',
        farmerId: farmer_id,
        subject,
        platformFarmerId: platform_farmer_id,
        profile,
        onboardingStatus: onboarding_status,
        createdAt: registered_at,
        updatedAt: registered_at,
      };
    }
    case 'FarmerProfileUpdated':
      if (state.status !== 'registered') return state;
      return {
        ...state,
        profile: { ...state.profile, ...event.data.changes },
        onboardingStatus: event.data.onboarding_status,
        updatedAt: event.data.updated_at,
      };
  }
};

/** `farmer-<farmer_id>`: one farmer's profile. */
export const farmerStream = streamName('farmer');

export const farmerAggregate: Aggregate<Farmer, FarmerEvent> = { initial: initialFarmer, evolve: evolveFarmer };

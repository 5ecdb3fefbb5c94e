import { ERASED_TEXT, type FarmerEvent, type FarmerProfileFields } from '@cropcover/contracts';
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
      /** When the farmer was erased (SPEC §6): their personal fields read as erased for good. */
      readonly erasedAt?: string;
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
    case 'FarmerErased':
      if (state.status !== 'registered') return state;
      return {
        ...state,
        profile: { ...state.profile, ...ERASED_PROFILE },
        erasedAt: event.data.erased_at,
        updatedAt: event.data.erased_at,
      };
  }
};

/** What an erased profile shows: the contract's placeholders for its personal fields. */
export const ERASED_PROFILE = {
  first_name: ERASED_TEXT,
  last_name: ERASED_TEXT,
  phone_number: null,
  whatsapp_number: null,
} as const satisfies Partial<FarmerProfileFields>;

/** `farmer-<farmer_id>`: one farmer's profile. */
export const farmerStream = streamName('farmer');

export const farmerAggregate: Aggregate<Farmer, FarmerEvent> = { initial: initialFarmer, evolve: evolveFarmer };

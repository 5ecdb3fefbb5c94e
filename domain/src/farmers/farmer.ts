import { ERASED_TEXT, type FarmerEvent, type FarmerProfileFields } from '@cropcover/contracts';
import { type Aggregate, streamName } from '../aggregate';

export type OnboardingStatus = 'pending' | 'completed';

export type Farmer =
  | { readonly status: 'unregistered' }
  /** The stream a login's own profile would have, when the login claimed an enrolled profile instead. */
  | { readonly status: 'linked'; readonly subject: string; readonly claimedFarmerId: string }
  | {
      readonly status: 'registered';
      readonly farmerId: string;
      /** The farmer's login; null for a profile a field agent enrolled, until the farmer claims it. */
      readonly subject: string | null;
      readonly platformFarmerId: string;
      readonly profile: FarmerProfileFields;
      readonly onboardingStatus: OnboardingStatus;
      /** How a field agent enrolled the farmer; null for a profile the farmer made. */
      readonly enrolment: FarmerEnrolment | null;
      readonly createdAt: string;
      readonly updatedAt: string;
      /** When the farmer was erased (SPEC §6): their personal fields read as erased for good. */
      readonly erasedAt?: string;
    };

export interface FarmerEnrolment {
  readonly organizationId: string;
  readonly enrolledBy: string;
  readonly farmId: string;
}

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
        enrolment: null,
        createdAt: registered_at,
        updatedAt: registered_at,
      };
    }
    case 'FarmerEnrolled': {
      const {
        farmer_id,
        platform_farmer_id,
        onboarding_status,
        registered_by_org_id,
        enrolled_by,
        farm_id,
        enrolled_at,
        ...profile
      } = event.data;
      return {
        status: 'registered',
        farmerId: farmer_id,
        subject: null,
        platformFarmerId: platform_farmer_id,
        profile,
        onboardingStatus: onboarding_status,
        enrolment: { organizationId: registered_by_org_id, enrolledBy: enrolled_by, farmId: farm_id },
        createdAt: enrolled_at,
        updatedAt: enrolled_at,
      };
    }
    case 'FarmerProfileClaimed':
      // The profile is unchanged, so its updated_at (what a reader compares) stays.
      return state.status === 'registered' ? { ...state, subject: event.data.subject } : state;
    case 'FarmerLoginLinked':
      return { status: 'linked', subject: event.data.subject, claimedFarmerId: event.data.claimed_farmer_id };
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

import type { FarmerEvent, FarmerProfileFields } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import { type Farmer, onboardingStatusOf } from './farmer';

/** What a field agent records of the farmer; the rest of the profile is the farmer's to give. */
export type EnrolledProfile = Pick<
  FarmerProfileFields,
  'first_name' | 'last_name' | 'phone_number' | 'language' | 'upload_channel'
>;

export interface EnrolFarmer {
  readonly farmerId: string;
  readonly platformFarmerId: string;
  readonly organizationId: string;
  readonly agentSubject: string;
  readonly farmId: string;
  readonly profile: EnrolledProfile;
  readonly now: Date;
}

export const alreadyEnrolled = (detail: string): DomainError =>
  new DomainError(
    'conflict',
    'farmer_already_enrolled',
    `your organization enrolled this farmer already, with other details: ${detail}`,
  );

const ENROLLED_FIELDS = ['first_name', 'last_name', 'phone_number', 'language', 'upload_channel'] as const;

/** A field agent enrols a farmer for its organization: a profile held for the farmer, who has no login
 *  yet (SPEC §6). The same enrolment again records nothing; the same farmer with other details is a
 *  conflict, so an enrolment never silently overwrites what was recorded. */
export const enrolFarmer = (command: EnrolFarmer, state: Farmer): FarmerEvent[] => {
  if (state.status === 'registered') {
    const differing = ENROLLED_FIELDS.filter((name) => state.profile[name] !== command.profile[name]);
    if (state.enrolment?.organizationId !== command.organizationId) throw alreadyEnrolled('another enrolment');
    if (differing.length > 0) throw alreadyEnrolled(differing.join(', '));
    return [];
  }
  if (state.status === 'linked') throw alreadyEnrolled('another profile');
  const profile: FarmerProfileFields = {
    ...command.profile,
    whatsapp_number: null,
    // Consent to share the profile with anyone (the lookup) is the farmer's own act, not the agent's.
    data_consent_given: false,
  };
  return [
    {
      type: 'FarmerEnrolled',
      data: {
        farmer_id: command.farmerId,
        platform_farmer_id: command.platformFarmerId,
        ...profile,
        onboarding_status: onboardingStatusOf(profile),
        registered_by_org_id: command.organizationId,
        enrolled_by: command.agentSubject,
        farm_id: command.farmId,
        enrolled_at: command.now.toISOString(),
      },
    },
  ];
};

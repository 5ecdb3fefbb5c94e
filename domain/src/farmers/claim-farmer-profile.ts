import type { FarmerEvent } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import type { Farmer, RegisteredFarmer } from './farmer';

export interface ClaimFarmerProfile {
  readonly subject: string;
  readonly phoneNumber: string;
  readonly now: Date;
}

// An unknown code, a wrong phone and a profile another login holds read alike, so the claim cannot be
// used to learn which codes exist or whose phone a profile has.
const noSuchProfile = (): DomainError =>
  new DomainError('not_found', 'not_found', 'no enrolled profile with this id and phone number is yours to claim');

/** The enrolled profile the caller may claim: made by a field agent, its phone the one given, and not
 *  held by another login. */
export const claimableProfile = (state: Farmer, command: ClaimFarmerProfile): RegisteredFarmer => {
  if (
    state.status !== 'registered' ||
    state.enrolment === null ||
    state.profile.phone_number !== command.phoneNumber ||
    (state.subject !== null && state.subject !== command.subject)
  )
    throw noSuchProfile();
  return state;
};

/** The farmer claims, from their own login, the profile a field agent enrolled for them (SPEC §6); a
 *  claim of a profile the caller already holds records nothing. */
export const claimFarmerProfile = (command: ClaimFarmerProfile, state: Farmer): FarmerEvent[] => {
  const farmer = claimableProfile(state, command);
  if (farmer.subject === command.subject) return [];
  return [
    {
      type: 'FarmerProfileClaimed',
      data: { farmer_id: farmer.farmerId, subject: command.subject, claimed_at: command.now.toISOString() },
    },
  ];
};

export interface LinkFarmerLogin {
  /** The id a profile of the login's own would have (`farmerIdForSubject`). */
  readonly loginFarmerId: string;
  readonly subject: string;
  readonly claimedFarmerId: string;
  readonly now: Date;
}

/** Marks the login's own profile stream as holding the claimed profile instead: a login with a profile
 *  of its own, or holding another enrolled one, cannot claim (one profile per login). */
export const linkFarmerLogin = (command: LinkFarmerLogin, state: Farmer): FarmerEvent[] => {
  if (state.status === 'linked' && state.claimedFarmerId === command.claimedFarmerId) return [];
  if (state.status !== 'unregistered')
    throw new DomainError('conflict', 'farmer_profile_exists', 'this user already has a farmer profile');
  return [
    {
      type: 'FarmerLoginLinked',
      data: {
        farmer_id: command.loginFarmerId,
        subject: command.subject,
        claimed_farmer_id: command.claimedFarmerId,
        linked_at: command.now.toISOString(),
      },
    },
  ];
};

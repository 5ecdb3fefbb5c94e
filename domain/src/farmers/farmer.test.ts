import type { FarmerEvent, FarmerProfileFields } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../testing/decider-spec';
import { eraseFarmer } from './erase-farmer';
import { evolveFarmer, initialFarmer } from './farmer';
import { farmerIdForSubject } from './farmer-id';
import { type RegisterFarmer, registerFarmer } from './register-farmer';
import { type UpdateFarmerProfile, updateFarmerProfile } from './update-farmer-profile';

const now = new Date('2026-03-01T10:00:00.000Z');
const profile: FarmerProfileFields = {
  first_name: 'Amina',
  last_name: 'Otieno',
  phone_number: null,
  language: 'sw',
  upload_channel: null,
  whatsapp_number: null,
  data_consent_given: false,
};
const registered: FarmerEvent = {
  type: 'FarmerRegistered',
  data: {
    farmer_id: farmerIdForSubject('u1'),
    subject: 'u1',
    platform_farmer_id: 'PF-7K3M9QXD',
    ...profile,
    onboarding_status: 'pending',
    source: 'profile',
    registered_at: now.toISOString(),
  },
};

describe('registering a farmer', () => {
  const spec = deciderSpec(initialFarmer, evolveFarmer, registerFarmer);
  const command: RegisterFarmer = {
    farmerId: farmerIdForSubject('u1'),
    subject: 'u1',
    platformFarmerId: 'PF-7K3M9QXD',
    profile,
    source: 'profile',
    now,
  };

  it('records the profile, pending until consent is given', () => {
    spec.given([]).when(command).thenEvents([registered]);
  });

  it('is completed when names and consent are given', () => {
    const consenting = { ...command, profile: { ...profile, data_consent_given: true } };
    spec
      .given([])
      .when(consenting)
      .thenEvents([
        {
          ...registered,
          data: { ...registered.data, data_consent_given: true, onboarding_status: 'completed' },
        } as FarmerEvent,
      ]);
  });

  it('stays pending when made from a token without names', () => {
    const fromClaims = {
      ...command,
      source: 'token_claims' as const,
      profile: { ...profile, first_name: '', last_name: '', data_consent_given: true },
    };
    const [event] = registerFarmer(fromClaims, initialFarmer);
    spec.given([]).when(fromClaims).thenEvents([event!]);
    if (event?.type !== 'FarmerRegistered' || event.data.onboarding_status !== 'pending')
      throw new Error('expected pending');
  });

  it('refuses a second profile for the same user', () => {
    spec.given([registered]).when(command).thenRefuses('conflict', 'farmer_profile_exists');
  });
});

describe('updating a farmer profile', () => {
  const spec = deciderSpec(initialFarmer, evolveFarmer, updateFarmerProfile);
  const later = new Date('2026-03-02T10:00:00.000Z');

  it('records only what changed and completes onboarding on consent', () => {
    const command: UpdateFarmerProfile = { changes: { first_name: 'Amina', data_consent_given: true }, now: later };
    spec
      .given([registered])
      .when(command)
      .thenEvents([
        {
          type: 'FarmerProfileUpdated',
          data: {
            farmer_id: farmerIdForSubject('u1'),
            changes: { data_consent_given: true },
            onboarding_status: 'completed',
            updated_at: later.toISOString(),
          },
        },
      ]);
  });

  it('records nothing when nothing changes', () => {
    spec
      .given([registered])
      .when({ changes: { language: 'sw' }, now: later })
      .thenEvents([]);
  });

  it('clears an optional field with null', () => {
    spec
      .given([registered])
      .when({ changes: { language: null }, now: later })
      .thenEvents([
        {
          type: 'FarmerProfileUpdated',
          data: {
            farmer_id: farmerIdForSubject('u1'),
            changes: { language: null },
            onboarding_status: 'pending',
            updated_at: later.toISOString(),
          },
        },
      ]);
  });

  it('refuses when there is no profile', () => {
    spec
      .given([])
      .when({ changes: { language: 'en' }, now: later })
      .thenRefuses('not_found', 'farmer_profile_not_found');
  });
});

describe('erasing a farmer', () => {
  const spec = deciderSpec(initialFarmer, evolveFarmer, eraseFarmer);
  const later = new Date('2026-03-03T10:00:00.000Z');
  const erased: FarmerEvent = {
    type: 'FarmerErased',
    data: { farmer_id: farmerIdForSubject('u1'), erased_at: later.toISOString(), erased_by: 'farmer' },
  };

  it('records the erasure', () => {
    spec.given([registered]).when({ erasedBy: 'farmer', now: later }).thenEvents([erased]);
  });

  it('records nothing when asked again', () => {
    spec.given([registered, erased]).when({ erasedBy: 'admin', now: later }).thenEvents([]);
  });

  it('refuses when there is no profile', () => {
    spec.given([]).when({ erasedBy: 'admin', now: later }).thenRefuses('not_found', 'farmer_profile_not_found');
  });

  it('shows the profile erased and takes no more personal data', () => {
    const state = [registered, erased].reduce(evolveFarmer, initialFarmer);
    expect(state).toMatchObject({ profile: { first_name: '[erased]', last_name: '[erased]', phone_number: null } });
    deciderSpec(initialFarmer, evolveFarmer, updateFarmerProfile)
      .given([registered, erased])
      .when({ changes: { first_name: 'Amina' }, now: later })
      .thenRefuses('rejected', 'farmer_erased');
  });
});

import type { FarmEvent, FarmerEvent } from '@cropcover/contracts';
import { describe, it } from 'vitest';
import { claimFarm } from '../farms/claim-farm';
import { type EnrolFarm, enrolFarm } from '../farms/enrol-farm';
import { evolveFarm, initialFarm } from '../farms/farm';
import { deciderSpec } from '../testing/decider-spec';
import { claimFarmerProfile, linkFarmerLogin } from './claim-farmer-profile';
import { type EnrolFarmer, enrolFarmer } from './enrol-farmer';
import { evolveFarmer, initialFarmer } from './farmer';

const now = new Date('2026-03-01T10:00:00.000Z');
const profile = {
  first_name: 'Amina',
  last_name: 'Otieno',
  phone_number: '+254712345678',
  language: 'sw',
  upload_channel: 'field_agent' as const,
};
const enrolment: EnrolFarmer = {
  farmerId: 'farmer-1',
  platformFarmerId: 'PF-7K3M9QXD',
  organizationId: 'org-coop',
  agentSubject: 'agent-1',
  farmId: 'farm-1',
  profile,
  now,
};
const enrolled: FarmerEvent = {
  type: 'FarmerEnrolled',
  data: {
    farmer_id: 'farmer-1',
    platform_farmer_id: 'PF-7K3M9QXD',
    ...profile,
    whatsapp_number: null,
    data_consent_given: false,
    onboarding_status: 'pending',
    registered_by_org_id: 'org-coop',
    enrolled_by: 'agent-1',
    farm_id: 'farm-1',
    enrolled_at: now.toISOString(),
  },
};

describe('a field agent enrolling a farmer', () => {
  const spec = deciderSpec(initialFarmer, evolveFarmer, enrolFarmer);

  it('records a profile held for the farmer, with the organization and the agent', () =>
    spec.given([]).when(enrolment).thenEvents([enrolled]));
  it('records nothing when the organization enrols the same farmer again', () =>
    spec
      .given([enrolled])
      .when({ ...enrolment, platformFarmerId: 'PF-OTHERCODE' })
      .thenEvents([]));
  it('refuses the same phone with other details', () =>
    spec
      .given([enrolled])
      .when({ ...enrolment, profile: { ...profile, first_name: 'Aminah' } })
      .thenRefuses('conflict', 'farmer_already_enrolled'));
});

const enrolFarmCommand: EnrolFarm = {
  farmId: 'farm-1',
  platformFarmId: 'PM-4N8R2WJC',
  ownerFarmerId: 'farmer-1',
  organizationId: 'org-coop',
  agentSubject: 'agent-1',
  attributes: {
    name: 'Shamba',
    has_irrigation: false,
    farm_type: null,
    farm_size: null,
    tenure_type: null,
    irrigation_type: null,
    water_source: null,
    common_grown_crops: null,
    soil_type: null,
    currency: null,
    location: null,
    country: 'KE',
  },
  fields: [{ fieldId: 'north', name: 'North plot', areaHa: 1.5, location: { lat: -1.29, lon: 36.82 }, cropType: null }],
  consent: {
    method: 'signed_form',
    recordedAt: new Date('2026-03-01T09:00:00.000Z'),
    purposes: ['insurance'],
    evidenceRef: 'form-42',
  },
  now,
};
const farmEnrolled: FarmEvent[] = [
  {
    type: 'FarmRegistered',
    data: {
      farm_id: 'farm-1',
      platform_farm_id: 'PM-4N8R2WJC',
      owner_farmer_id: 'farmer-1',
      owner_subject: null,
      registered_by_org_id: 'org-coop',
      ...enrolFarmCommand.attributes,
      created_at: now.toISOString(),
    },
  },
  {
    type: 'FieldRegistered',
    data: {
      farm_id: 'farm-1',
      field_id: 'north',
      name: 'North plot',
      area_ha: 1.5,
      location: { lat: -1.29, lon: 36.82 },
      crop_type: null,
      registered_at: now.toISOString(),
    },
  },
  {
    type: 'FarmAccessGranted',
    data: {
      farm_id: 'farm-1',
      organization_id: 'org-coop',
      purposes: ['insurance'],
      expires_on: null,
      origin: 'assisted_onboarding',
      granted_by: 'agent-1',
      granted_at: now.toISOString(),
      consent: { method: 'signed_form', recorded_at: '2026-03-01T09:00:00.000Z', evidence_ref: 'form-42' },
    },
  },
];

describe('the farm a field agent enrols', () => {
  const spec = deciderSpec(initialFarm, evolveFarm, enrolFarm);

  it('is registered by the organization, owned by no login yet, with its fields and the consented grant', () =>
    spec.given([]).when(enrolFarmCommand).thenEvents(farmEnrolled));
  it('records nothing when enrolled again the same', () =>
    spec
      .given(farmEnrolled)
      .when({ ...enrolFarmCommand, platformFarmId: 'PM-OTHERCODE' })
      .thenEvents([]));
  it('refuses another field list for the same farmer', () =>
    spec
      .given(farmEnrolled)
      .when({ ...enrolFarmCommand, fields: [] })
      .thenRefuses('conflict', 'farmer_already_enrolled'));
  it('refuses consent recorded later than now', () =>
    spec
      .given([])
      .when({
        ...enrolFarmCommand,
        consent: { ...enrolFarmCommand.consent, recordedAt: new Date('2026-03-01T10:00:01Z') },
      })
      .thenRefuses('rejected', 'consent_in_future'));
});

describe('the farmer claiming the enrolled profile', () => {
  const spec = deciderSpec(initialFarmer, evolveFarmer, claimFarmerProfile);
  const later = new Date('2026-03-05T08:00:00.000Z');
  const claim = { subject: 'farmer-login', phoneNumber: '+254712345678', now: later };
  const claimed: FarmerEvent = {
    type: 'FarmerProfileClaimed',
    data: { farmer_id: 'farmer-1', subject: 'farmer-login', claimed_at: later.toISOString() },
  };

  it('gives the profile to the login whose phone matches', () =>
    spec.given([enrolled]).when(claim).thenEvents([claimed]));
  it('records nothing when the same login claims it again', () =>
    spec.given([enrolled, claimed]).when(claim).thenEvents([]));
  it('answers another phone as an unknown profile', () =>
    spec
      .given([enrolled])
      .when({ ...claim, phoneNumber: '+254700000000' })
      .thenRefuses('not_found', 'not_found'));
  it('answers a profile another login holds as unknown', () =>
    spec
      .given([enrolled, claimed])
      .when({ ...claim, subject: 'someone-else' })
      .thenRefuses('not_found', 'not_found'));
  it('answers a profile the farmer made themself as unknown', () =>
    spec
      .given([
        {
          type: 'FarmerRegistered',
          data: {
            farmer_id: 'farmer-1',
            subject: 'u1',
            platform_farmer_id: 'PF-7K3M9QXD',
            ...profile,
            whatsapp_number: null,
            data_consent_given: false,
            onboarding_status: 'pending',
            source: 'profile',
            registered_at: now.toISOString(),
          },
        },
      ])
      .when(claim)
      .thenRefuses('not_found', 'not_found'));

  const link = { loginFarmerId: 'login-own', subject: 'farmer-login', claimedFarmerId: 'farmer-1', now: later };
  const linked: FarmerEvent = {
    type: 'FarmerLoginLinked',
    data: {
      farmer_id: 'login-own',
      subject: 'farmer-login',
      claimed_farmer_id: 'farmer-1',
      linked_at: later.toISOString(),
    },
  };
  it("marks the login's own profile stream as holding the claimed profile", () =>
    deciderSpec(initialFarmer, evolveFarmer, linkFarmerLogin).given([]).when(link).thenEvents([linked]));
  it('refuses a login holding another enrolled profile', () =>
    deciderSpec(initialFarmer, evolveFarmer, linkFarmerLogin)
      .given([linked])
      .when({ ...link, claimedFarmerId: 'farmer-2' })
      .thenRefuses('conflict', 'farmer_profile_exists'));

  it('hands the enrolled farm to the login', () =>
    deciderSpec(initialFarm, evolveFarm, claimFarm)
      .given(farmEnrolled)
      .when({ ownerFarmerId: 'farmer-1', subject: 'farmer-login', now: later })
      .thenEvents([
        {
          type: 'FarmClaimed',
          data: {
            farm_id: 'farm-1',
            owner_farmer_id: 'farmer-1',
            owner_subject: 'farmer-login',
            claimed_at: later.toISOString(),
          },
        },
      ]));
});

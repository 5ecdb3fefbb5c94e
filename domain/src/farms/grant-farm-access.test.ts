import type { FarmEvent } from '@cropcover/contracts';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain-error';
import { admin, farmOwner, stranger } from '../testing/actors';
import { deciderSpec } from '../testing/decider-spec';
import { insuredFarmEvents, insurer, otherInsurer } from '../testing/insured-farm';
import { evolveFarm, type Farm, initialFarm } from './farm';
import { insurableFarm } from './farm-access';
import { grantFarmAccess, revokeFarmAccess } from './grant-farm-access';

const now = new Date('2026-05-10T08:00:00.000Z');
const farmEvents = insuredFarmEvents();
const granted = (overrides: Partial<Extract<FarmEvent, { type: 'FarmAccessGranted' }>['data']> = {}): FarmEvent => ({
  type: 'FarmAccessGranted',
  data: {
    farm_id: 'farm-1',
    organization_id: 'org-1',
    purposes: ['insurance'],
    expires_on: null,
    origin: 'owner',
    granted_by: 'owner',
    granted_at: now.toISOString(),
    ...overrides,
  },
});
const revoked: FarmEvent = {
  type: 'FarmAccessRevoked',
  data: { farm_id: 'farm-1', organization_id: 'org-1', revoked_by: 'owner', revoked_at: now.toISOString() },
};
const linkedOnIssue: FarmEvent = {
  type: 'FarmLinkedToOrganization',
  data: { farm_id: 'farm-1', organization_id: 'org-1', relationship: 'insurer', linked_at: '2026-02-01T00:00:00.000Z' },
};
const farmOf = (events: readonly FarmEvent[]): Farm => events.reduce(evolveFarm, initialFarm);

describe('granting access to a farm', () => {
  const spec = deciderSpec(initialFarm, evolveFarm, grantFarmAccess);
  const command = { actor: farmOwner, organizationId: 'org-1', purposes: ['insurance'] as const, expiresOn: null, now };

  it('records the owner’s grant', () => spec.given(farmEvents).when(command).thenEvents([granted()]));
  it('records an admin’s grant as such', () =>
    spec
      .given(farmEvents)
      .when({ ...command, actor: admin })
      .thenEvents([granted({ origin: 'admin', granted_by: 'root' })]));
  it('records nothing for the same grant again', () =>
    spec
      .given([...farmEvents, granted()])
      .when(command)
      .thenEvents([]));
  it('replaces a grant with other purposes or expiry', () =>
    spec
      .given([...farmEvents, granted()])
      .when({ ...command, purposes: ['credit', 'insurance'], expiresOn: '2026-12-31' })
      .thenEvents([granted({ purposes: ['credit', 'insurance'], expires_on: '2026-12-31' })]));
  it('records the farmer’s own grant over a link made by issuing', () =>
    spec
      .given([...farmEvents, linkedOnIssue])
      .when(command)
      .thenEvents([granted()]));
  it('refuses an expiry before today', () =>
    spec
      .given(farmEvents)
      .when({ ...command, expiresOn: '2026-05-09' })
      .thenRefuses('rejected', 'access_expiry_past'));
  it('refuses a granted organization, which only reads the farm', () =>
    spec
      .given([...farmEvents, granted()])
      .when({ ...command, actor: insurer, organizationId: 'org-2' })
      .thenRefuses('forbidden', 'not_farm_owner'));
  it('answers anyone else as for an unknown farm', () =>
    spec
      .given(farmEvents)
      .when({ ...command, actor: stranger })
      .thenRefuses('not_found', 'not_found'));
});

describe('revoking access to a farm', () => {
  const spec = deciderSpec(initialFarm, evolveFarm, revokeFarmAccess);
  const command = { actor: farmOwner, organizationId: 'org-1', now };

  it('records the revocation', () =>
    spec
      .given([...farmEvents, granted()])
      .when(command)
      .thenEvents([revoked]));
  it('revokes a link made by issuing', () =>
    spec
      .given([...farmEvents, linkedOnIssue])
      .when(command)
      .thenEvents([revoked]));
  it('refuses an organization holding no grant', () =>
    spec.given(farmEvents).when(command).thenRefuses('not_found', 'access_grant_not_found'));
  it('refuses twice', () =>
    spec
      .given([...farmEvents, granted(), revoked])
      .when(command)
      .thenRefuses('not_found', 'access_grant_not_found'));
});

describe('the farm an organization may insure', () => {
  const refusal = (farm: Farm, actor = insurer, today = '2026-05-10') => {
    try {
      insurableFarm(farm, actor, today);
      return undefined;
    } catch (error) {
      return error;
    }
  };

  it('is one it holds a live insurance grant on', () => {
    expect(refusal(farmOf([...farmEvents, granted()]))).toBeUndefined();
    expect(refusal(farmOf([...farmEvents, granted({ expires_on: '2026-05-10' })]))).toBeUndefined();
  });
  it('is one linked to it by an issue before grants', () =>
    expect(refusal(farmOf([...farmEvents, linkedOnIssue]))).toBeUndefined());
  it('is any to an admin', () => expect(refusal(farmOf(farmEvents), admin)).toBeUndefined());
  it('is not one without a grant, with another purpose, expired or revoked: as unknown', () => {
    for (const farm of [
      farmOf(farmEvents),
      farmOf([...farmEvents, granted({ purposes: ['credit'] })]),
      farmOf([...farmEvents, granted({ expires_on: '2026-05-09' })]),
      farmOf([...farmEvents, granted(), revoked]),
    ])
      expect(refusal(farm)).toMatchObject(new DomainError('not_found', 'not_found', 'no such farm'));
    expect(refusal(farmOf([...farmEvents, granted()]), otherInsurer)).toBeInstanceOf(DomainError);
  });
});

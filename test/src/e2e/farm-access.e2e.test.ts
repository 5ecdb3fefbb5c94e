import { describe, expect, it } from 'vitest';
import type { Caller } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { recordReadings } from '../support/index-readings';
import { expectProblem } from '../support/problem-assertions';
import { serviceUnderTest } from '../support/service-under-test';

// SPEC §6 "A farmer's data belongs to the farmer" (issue 25): registry reads by live grant only, quote and
// issue by a live insurance grant, each organization sees only its own entry, and a policy stays payable
// after its insurer's grant is revoked.

const suite = serviceUnderTest('e2e_farm_access', { MONITOR_ENABLED: 'false' });
const { api, query } = suite;
let sequence = 0;

const insurer: Caller = { sub: 'underwriter-g', org: 'org-granted', roles: ['insurer'] };
const rival: Caller = { sub: 'underwriter-r', org: 'org-rival', roles: ['insurer'] };
const lender: Caller = { sub: 'loan-officer', org: 'org-lender', roles: ['insurer'] };
const feed: Caller = { sub: 'granted-feed', org: insurer.org, roles: ['data_provider'] };
const admin: Caller = { sub: 'ops', org: 'org-ops', roles: ['admin'] };
const farmer = (): Caller => ({
  sub: `farmer-g-${++sequence}-${Date.now()}`,
  givenName: 'Amina',
  familyName: 'Otieno',
});

const written = async () => ({
  events: Number(
    (
      await query<{ count: string }>(
        // The programme book keeper writes programme and reinsurance streams on its own, moments after an
        // issue, lapse, close or payout: what a request appended is the rest.
        `select count(*) from events where stream_id not like 'programme-%' and stream_id not like 'reinsurance-%'`,
      )
    ).rows[0]!.count,
  ),
  grants: Number((await query<{ count: string }>('select count(*) from farm_organizations')).rows[0]!.count),
});

const farmWithField = async () => {
  const owner = farmer();
  const farm = await api.post('/farms/create', owner, { name: 'Shamba' });
  expect(farm.status).toBe(201);
  const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
    field_id: `plot-${sequence}`,
    name: 'North plot',
    area_ha: 2.5,
    location: { lat: -1.29, lon: 36.82 },
  });
  expect(field.status).toBe(201);
  return { owner, farm_id: farm.body.farm_id as string, field_id: field.body.field_id as string };
};

const cover = (field: { farm_id: string; field_id: string }) => ({
  farm_id: field.farm_id,
  field_id: field.field_id,
  perils: ['flood', 'storm'],
  sum_insured: 10000,
  currency: 'USD',
  term_start: addDays(today(), -5),
  term_end: addDays(today(), 90),
});

const grant = (owner: Caller, farmId: string, body: Record<string, unknown>) =>
  api.post(`/farms/${farmId}/access`, owner, body);

describe('a farmer grants and revokes access to a farm', () => {
  it('hides the farm from an unrelated insurer until granted; after revocation its policy still pays', async () => {
    const field = await farmWithField();
    const registryReads = [`/farms/${field.farm_id}`, `/farms/${field.farm_id}/fields`];
    // Reads a granted organization never has: the owner's grant list, inactive farms, the lookup of a
    // farmer who did not consent to share.
    const code = (await api.get('/farms/farmers/me', field.owner)).body.platform_farmer_id as string;
    const ownerReads = [
      `/farms/${field.farm_id}/access`,
      `/farms/${field.farm_id}?include_inactive=true`,
      `/farms/farmers/${code}`,
    ];

    // Unrelated: 404 on quote, issue and every registry read, as for an unknown farm; nothing written.
    const before = await written();
    expectProblem(await api.post('/insurance/quote', insurer, cover(field)), 404, 'not_found');
    expectProblem(await api.post('/insurance/policies', insurer, cover(field)), 404, 'not_found');
    for (const path of [...registryReads, ...ownerReads]) expectProblem(await api.get(path, insurer), 404, 'not_found');
    expect(await written()).toEqual(before);

    // A grant for another purpose shows the farm, but does not let the organization insure it.
    expect(
      (await grant(field.owner, field.farm_id, { organization_id: insurer.org, purposes: ['advisory'] })).status,
    ).toBe(201);
    expect((await api.get(`/farms/${field.farm_id}`, insurer)).status).toBe(200);
    expectProblem(await api.post('/insurance/quote', insurer, cover(field)), 404, 'not_found');

    // With insurance, it quotes and issues.
    const granted = await grant(field.owner, field.farm_id, {
      organization_id: insurer.org,
      purposes: ['insurance', 'advisory'],
    });
    expect(granted.status).toBe(201);
    expect(granted.body).toEqual({
      farm_id: field.farm_id,
      organization_id: insurer.org,
      purposes: ['insurance', 'advisory'],
      relationship: 'insurance',
      origin: 'owner',
      granted_at: expect.any(String),
      expires_on: null,
    });
    expect((await api.post('/insurance/quote', insurer, cover(field))).status).toBe(200);
    const policy = await api.post('/insurance/policies', insurer, cover(field));
    expect(policy.status).toBe(201);
    for (const path of registryReads) expect((await api.get(path, insurer)).status).toBe(200);

    // Revoked: the registry is closed to it again, and its policy still evaluates and pays.
    const revoked = await api.delete(`/farms/${field.farm_id}/access/${insurer.org}`, field.owner);
    expect(revoked.status).toBe(204);
    for (const path of [...registryReads, ...ownerReads]) expectProblem(await api.get(path, insurer), 404, 'not_found');
    expectProblem(await api.post('/insurance/quote', insurer, cover(field)), 404, 'not_found');
    expectProblem(await api.post('/insurance/policies', insurer, cover(field)), 404, 'not_found');
    await recordReadings(api, feed, field, 'rainfall_mm', policy.body.term_start, [40, 40, 40, 40, 20]);
    const evaluated = await api.post(`/insurance/policies/${policy.body.policy_id}/evaluate`, insurer, {});
    expect(evaluated.status).toBe(200);
    expect(evaluated.body).toMatchObject({ total_payout: 2000, payout_count: 1, policy_status: 'claimed' });
  });

  it('shows the owner and admins every grant, and an organization only its own entry', async () => {
    const field = await farmWithField();
    await grant(field.owner, field.farm_id, { organization_id: insurer.org, purposes: ['insurance'] });
    await grant(field.owner, field.farm_id, {
      organization_id: lender.org,
      purposes: ['credit'],
      expires_on: addDays(today(), 30),
    });
    const organizationsSeenBy = async (caller: Caller) =>
      ((await api.get(`/farms/${field.farm_id}`, caller)).body.organizations as { organization_id: string }[]).map(
        (entry) => entry.organization_id,
      );
    expect(await organizationsSeenBy(field.owner)).toEqual([insurer.org, lender.org]);
    expect(await organizationsSeenBy(admin)).toEqual([insurer.org, lender.org]);
    expect(await organizationsSeenBy(insurer)).toEqual([insurer.org]);
    expect(await organizationsSeenBy(lender)).toEqual([lender.org]);

    const listed = await api.get(`/farms/${field.farm_id}/access`, field.owner);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({ organization_id: insurer.org, purposes: ['insurance'], expires_on: null }),
      expect.objectContaining({
        organization_id: lender.org,
        relationship: 'credit',
        expires_on: addDays(today(), 30),
      }),
    ]);
    // The list is the owner's: a granted organization is told it does not exist.
    expectProblem(await api.get(`/farms/${field.farm_id}/access`, insurer), 404, 'not_found');
  });

  it('shows a consenting farmer’s lookup to anyone, each farm with only the caller’s own entry', async () => {
    const field = await farmWithField();
    await api.put('/farms/farmers/me', field.owner, { data_consent_given: true });
    await grant(field.owner, field.farm_id, { organization_id: insurer.org, purposes: ['insurance'] });
    await grant(field.owner, field.farm_id, { organization_id: lender.org, purposes: ['credit'] });
    const code = (await api.get('/farms/farmers/me', field.owner)).body.platform_farmer_id as string;
    const seenBy = async (caller: Caller) => {
      const lookup = await api.get(`/farms/farmers/${code}`, caller);
      expect(lookup.status).toBe(200);
      return (lookup.body.farms[0].organizations as { organization_id: string }[]).map(
        (entry) => entry.organization_id,
      );
    };
    expect(await seenBy(rival)).toEqual([]);
    expect(await seenBy(lender)).toEqual([lender.org]);
    expect(await seenBy(field.owner)).toEqual([insurer.org, lender.org]);
    // Seeing the farm in the lookup grants nothing.
    expectProblem(await api.post('/insurance/quote', rival, cover(field)), 404, 'not_found');
  });

  it('refuses what only the owner may do, and bad grants, changing nothing', async () => {
    const field = await farmWithField();
    await grant(field.owner, field.farm_id, { organization_id: insurer.org, purposes: ['insurance'] });
    const before = await written();
    expectProblem(
      await grant(insurer, field.farm_id, { organization_id: rival.org, purposes: ['insurance'] }),
      403,
      'not_farm_owner',
    );
    expectProblem(
      await grant(rival, field.farm_id, { organization_id: rival.org, purposes: ['insurance'] }),
      404,
      'not_found',
    );
    expectProblem(
      await grant(field.owner, field.farm_id, {
        organization_id: rival.org,
        purposes: ['insurance'],
        expires_on: addDays(today(), -1),
      }),
      422,
      'access_expiry_past',
    );
    expectProblem(
      await grant(field.owner, field.farm_id, { organization_id: rival.org, purposes: ['insurance', 'insurance'] }),
      400,
      'validation_failed',
    );
    expectProblem(
      await grant(field.owner, field.farm_id, { organization_id: rival.org, purposes: [] }),
      400,
      'validation_failed',
    );
    expectProblem(
      await api.delete(`/farms/${field.farm_id}/access/${rival.org}`, field.owner),
      404,
      'access_grant_not_found',
    );
    expectProblem(await api.delete(`/farms/${field.farm_id}/access/${insurer.org}`, insurer), 403, 'not_farm_owner');
    expect(await written()).toEqual(before);
    // An admin may grant for the farmer; the grant says so.
    const byAdmin = await grant(admin, field.farm_id, { organization_id: rival.org, purposes: ['data_collection'] });
    expect(byAdmin.body).toMatchObject({ origin: 'admin', relationship: 'data_collection' });
  });
});

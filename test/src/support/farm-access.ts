import type { ApiClient, Caller } from './api-client';

/** The farmer grants each organization `insurance` access to the farm (SPEC §6): quoting and issuing
 *  need it. Throws rather than asserts, so the benchmarks can use it outside a test. */
export const grantInsurance = async (
  api: ApiClient,
  owner: Caller,
  farmId: string,
  ...organizationIds: readonly string[]
): Promise<void> => {
  for (const organizationId of organizationIds) {
    const granted = await api.post(`/farms/${farmId}/access`, owner, {
      organization_id: organizationId,
      purposes: ['insurance'],
    });
    if (granted.status !== 201)
      throw new Error(`granting ${organizationId} access to ${farmId} answered ${granted.status}`);
  }
};

import { expect } from 'vitest';
import type { ApiClient, Caller } from './api-client';

/** The farmer grants each organization `insurance` access to the farm (SPEC §6): quoting and issuing
 *  need it. */
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
    expect(granted.status).toBe(201);
  }
};

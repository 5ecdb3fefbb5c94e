import type { Farm } from '@cropcover/contracts';
import type { RegisteredFarm, RegisteredFarmer } from '@cropcover/domain';
import { farmerResponse } from './farmer-response';

export const farmResponse = (farm: RegisteredFarm, owner: RegisteredFarmer): Farm => ({
  farm_id: farm.farmId,
  platform_farm_id: farm.platformFarmId,
  owner_id: farm.ownerFarmerId,
  registered_by_org_id: farm.registeredByOrgId,
  ...farm.attributes,
  is_active: farm.isActive,
  created_at: farm.createdAt,
  updated_at: farm.updatedAt,
  farmer: farmerResponse(owner),
  // Answered to the owner or an admin, who see every grant.
  organizations: farm.organizations.map((grant) => ({
    organization_id: grant.organization_id,
    relationship: grant.purposes[0]!,
    linked_at: grant.granted_at,
    ...(grant.expires_on === null ? {} : { expires_on: grant.expires_on }),
  })),
});

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
  organizations: [...farm.organizations],
});

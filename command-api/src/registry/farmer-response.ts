import type { FarmerProfile } from '@cropcover/contracts';
import type { RegisteredFarmer } from '@cropcover/domain';

export const farmerResponse = (farmer: RegisteredFarmer): FarmerProfile => ({
  farmer_id: farmer.farmerId,
  platform_farmer_id: farmer.platformFarmerId,
  ...farmer.profile,
  onboarding_status: farmer.onboardingStatus,
  is_active: true,
  created_at: farmer.createdAt,
  updated_at: farmer.updatedAt,
});

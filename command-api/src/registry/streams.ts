import type { FarmEvent, FarmerEvent } from '@cropcover/contracts';
import { evolveFarm, evolveFarmer, type Farm, type Farmer, initialFarm, initialFarmer } from '@cropcover/domain';
import type { Aggregate } from '../handle-command';

export const farmerStream = (farmerId: string): string => `farmer-${farmerId}`;
export const farmStream = (farmId: string): string => `farm-${farmId}`;

export const farmerAggregate: Aggregate<Farmer, FarmerEvent> = { initial: initialFarmer, evolve: evolveFarmer };
export const farmAggregate: Aggregate<Farm, FarmEvent> = { initial: initialFarm, evolve: evolveFarm };

import { loadAggregate } from '@cropcover/application';
import type { RegisteredFarm, RegisteredFarmer } from '@cropcover/domain';
import { farmerAggregate, farmerStream } from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';

/** The farmer who owns a farm; every farm is created with its owner's profile in place. */
export const ownerOf = async (eventStore: EventStore, farm: RegisteredFarm): Promise<RegisteredFarmer> => {
  const farmer = await loadAggregate(eventStore, farmerStream(farm.ownerFarmerId), farmerAggregate);
  if (farmer.status !== 'registered')
    throw new Error(`farm ${farm.farmId} has no registered owner ${farm.ownerFarmerId}`);
  return farmer;
};

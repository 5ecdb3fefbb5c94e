import type { Farm, Farmer, RegisteredFarm, RegisteredFarmer } from '@cropcover/domain';

// A successful register/update command always leaves a registered aggregate behind; these narrow the
// type and fail loudly if that ever stops being true.
export const registeredFarm = (farm: Farm): RegisteredFarm => {
  if (farm.status !== 'registered') throw new Error('expected a registered farm after the command');
  return farm;
};

export const registeredFarmer = (farmer: Farmer): RegisteredFarmer => {
  if (farmer.status !== 'registered') throw new Error('expected a registered farmer after the command');
  return farmer;
};

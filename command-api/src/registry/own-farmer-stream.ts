import { loadAggregate } from '@cropcover/application';
import { farmerAggregate, farmerIdForSubject, farmerStream } from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';

/** The stream of the caller's farmer profile: their own (`farmerIdForSubject`), or the enrolled profile
 *  they claimed, which their own stream then names (`FarmerLoginLinked`). */
export const ownFarmerStream = async (eventStore: EventStore, subject: string): Promise<string> => {
  const own = farmerStream(farmerIdForSubject(subject));
  const state = await loadAggregate(eventStore, own, farmerAggregate);
  return state.status === 'linked' ? farmerStream(state.claimedFarmerId) : own;
};

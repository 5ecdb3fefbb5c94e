import type { CommandContext } from '@cropcover/application';
import type { FarmerProfileFields } from '@cropcover/contracts';
import { type Farmer, farmerAggregate, farmerIdForSubject, farmerStream, registerFarmer } from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';
import { registerWithShareableId } from './register-with-shareable-id';

/** Registers the caller's farmer profile under a newly drawn shareable id (`PF-…`): from the profile they
 *  posted, or from their token's claims when a farm is created first. `existing` is the stream as read. */
export const registerFarmerProfile = (
  eventStore: EventStore,
  context: CommandContext,
  existing: Farmer,
  profile: FarmerProfileFields,
  source: 'profile' | 'token_claims',
) => {
  const farmerId = farmerIdForSubject(context.principal.sub);
  return registerWithShareableId(
    eventStore,
    'PF',
    farmerStream(farmerId),
    farmerAggregate,
    (platformFarmerId) =>
      registerFarmer(
        { farmerId, subject: context.principal.sub, platformFarmerId, profile, source, now: context.now },
        existing,
      ),
    context,
  );
};

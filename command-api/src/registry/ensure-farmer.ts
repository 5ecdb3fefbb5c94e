import { type CommandContext, loadAggregate } from '@cropcover/application';
import { farmerAggregate, farmerIdForSubject, farmerStream, type RegisteredFarmer } from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';
import { registerFarmerProfile } from './register-farmer-profile';
import { registeredFarmer } from './registered';

const E164 = /^\+[1-9]\d{6,14}$/;

/** The caller's farmer profile (their own, or the enrolled one they claimed); a user without one gets it
 *  made from the token's claims, pending until names and consent are given (SPEC §6). */
export const ensureFarmer = async (eventStore: EventStore, context: CommandContext): Promise<RegisteredFarmer> => {
  const farmerId = farmerIdForSubject(context.principal.sub);
  const stream = farmerStream(farmerId);
  const existing = await loadAggregate(eventStore, stream, farmerAggregate);
  if (existing.status === 'registered') return existing;
  if (existing.status === 'linked')
    return registeredFarmer(await loadAggregate(eventStore, farmerStream(existing.claimedFarmerId), farmerAggregate));

  const { givenName, familyName, phoneNumber } = context.principal;
  // Another request of the same user may make the profile meanwhile: then that one is kept.
  const outcome = await registerFarmerProfile(
    eventStore,
    context,
    existing,
    {
      first_name: givenName?.trim() ?? '',
      last_name: familyName?.trim() ?? '',
      phone_number: phoneNumber !== undefined && E164.test(phoneNumber) ? phoneNumber : null,
      language: null,
      upload_channel: null,
      whatsapp_number: null,
      data_consent_given: false,
    },
    'token_claims',
  );
  return registeredFarmer(outcome.state);
};

import { loadAggregate } from '@cropcover/application';
import { FarmerCreateRequest, FarmerProfile } from '@cropcover/contracts';
import { DomainError, farmerAggregate, farmerIdForSubject, farmerStream } from '@cropcover/domain';
import { commandContextOf } from '../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../command-route';
import { awaitReadModels } from '../../read-your-writes';
import { farmerResponse } from '../../registry/farmer-response';
import { registerFarmerProfile } from '../../registry/register-farmer-profile';
import { registeredFarmer } from '../../registry/registered';

const profileExists = () =>
  new DomainError('conflict', 'farmer_profile_exists', 'this user already has a farmer profile');

/** The caller's own farmer profile; a second one is 409. */
export const createFarmerProfile = commandRoute('POST /farms/farmers', {
  summary: "Create the caller's farmer profile",
  request: { body: FarmerCreateRequest },
  success: { status: 201, schema: FarmerProfile, description: 'Created' },
  problems: {
    409: { description: 'Profile exists', codes: ['farmer_profile_exists', ...KEPT_CHANGING.codes] },
  },
}).handle(async ({ deps, body, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const farmerId = farmerIdForSubject(context.principal.sub);
  const stream = farmerStream(farmerId);
  const existing = await loadAggregate(deps.eventStore, stream, farmerAggregate);
  // A login that claimed an enrolled profile holds that one (its own stream says so).
  if (existing.status !== 'unregistered') throw profileExists();
  const outcome = await registerFarmerProfile(
    deps.eventStore,
    context,
    existing,
    {
      first_name: body.first_name,
      last_name: body.last_name,
      phone_number: body.phone_number ?? null,
      language: body.language ?? null,
      upload_channel: body.upload_channel ?? null,
      whatsapp_number: body.whatsapp_number ?? null,
      data_consent_given: body.data_consent_given ?? false,
    },
    'profile',
  );
  // Another request of the same user made the profile between the read and the append.
  if (!outcome.appended) throw profileExists();
  await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
  res.location('/farms/farmers/me');
  return farmerResponse(registeredFarmer(outcome.state));
});

import { loadStream, toNewEvent } from '@cropcover/application';
import { FarmerClaimRequest, FarmerProfile } from '@cropcover/contracts';
import {
  claimableProfile,
  claimFarm,
  claimFarmerProfile,
  farmAggregate,
  farmerAggregate,
  farmerIdForSubject,
  farmerStream,
  farmStream,
  linkFarmerLogin,
  normalizeShareableId,
  shareableIdStream,
} from '@cropcover/domain';
import { WrongExpectedRevisionError } from '@cropcover/eventstore';
import { commandContextOf } from '../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../command-route';
import { awaitReadModels } from '../../../read-your-writes';
import { farmerResponse } from '../../../registry/farmer-response';
import { registeredFarmer } from '../../../registry/registered';

/** A concurrent write to the profile, the farm or the caller's own profile stream this many times: 409. */
const MAX_ATTEMPTS = 5;

/** The farmer claims, from their own login, the profile a field agent enrolled for them (SPEC §6): the
 *  profile becomes theirs (`GET /farms/farmers/me`) and so does the farm enrolled with it, whose grants
 *  they manage from then on like any owner. */
export const claimFarmerProfileRoute = commandRoute('POST /farms/farmers/claim', {
  summary: 'Claim the farmer profile a field agent enrolled for you (the phone must match)',
  description:
    'An unknown id, another phone number and a profile another login holds all answer 404. A login with a ' +
    'profile of its own cannot claim one (409). Claiming the profile you hold again records nothing.',
  request: { body: FarmerClaimRequest },
  success: { status: 200, schema: FarmerProfile, description: 'Claimed: the profile, now yours' },
  problems: {
    404: { description: 'No enrolled profile with this id and phone is yours to claim', codes: ['not_found'] },
    409: {
      description: `farmer_profile_exists: you have a profile already; ${KEPT_CHANGING.description}`,
      codes: ['farmer_profile_exists', ...KEPT_CHANGING.codes],
    },
  },
}).handle(async ({ deps, body, req, res, refuse }) => {
  const context = commandContextOf(req, deps.clock.now());
  const subject = context.principal.sub;
  const command = { subject, phoneNumber: body.phone_number, now: context.now };
  const unknown = () => refuse('not_found', 'No enrolled profile with this id and phone number is yours to claim.');
  const code = normalizeShareableId('PF', body.platform_farmer_id);
  if (code === undefined) throw unknown();
  // The code's claim names the profile's stream (ShareableIdClaimed.claimed_by).
  const [codeClaim] = await deps.eventStore.readStream(shareableIdStream(code));
  if (codeClaim?.type !== 'ShareableIdClaimed') throw unknown();
  const profileStream = (codeClaim.data as { claimed_by: string }).claimed_by;
  const loginStream = farmerStream(farmerIdForSubject(subject));

  for (let attempt = 1; ; attempt += 1) {
    const profile = await loadStream(deps.eventStore, profileStream, farmerAggregate);
    const farmer = claimableProfile(profile.state, command);
    const [login, farm] = await Promise.all([
      loadStream(deps.eventStore, loginStream, farmerAggregate),
      loadStream(deps.eventStore, farmStream(farmer.enrolment!.farmId), farmAggregate),
    ]);
    const claimEvents = claimFarmerProfile(command, profile.state);
    const claimed = registeredFarmer(claimEvents.reduce(farmerAggregate.evolve, profile.state));
    const appends = [
      {
        streamId: loginStream,
        events: linkFarmerLogin(
          { loginFarmerId: farmerIdForSubject(subject), subject, claimedFarmerId: farmer.farmerId, now: context.now },
          login.state,
        ),
        expected: login.expected,
      },
      { streamId: profileStream, events: claimEvents, expected: profile.expected },
      {
        streamId: farmStream(farmer.enrolment!.farmId),
        events: claimFarm({ ownerFarmerId: farmer.farmerId, subject, now: context.now }, farm.state),
        expected: farm.expected,
      },
    ].filter((append) => append.events.length > 0);
    if (appends.length === 0) return farmerResponse(claimed);
    try {
      const appended = await deps.eventStore.appendToStreams(
        appends.map((append) => ({ ...append, events: append.events.map((event) => toNewEvent(event, context)) })),
      );
      await awaitReadModels(deps.readYourWrites, res, appended.at(-1)!.position);
      res.location('/farms/farmers/me');
      return farmerResponse(claimed);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
});

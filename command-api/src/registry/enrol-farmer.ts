import { randomBytes } from 'node:crypto';
import { type CommandContext, type DomainEvent, loadStream, toNewEvent } from '@cropcover/application';
import type { FarmAttributes } from '@cropcover/contracts';
import {
  type EnrolledField,
  type EnrolledProfile,
  enrolFarm,
  enrolFarmer,
  farmAggregate,
  farmerAggregate,
  farmerStream,
  farmStream,
  newShareableId,
  type RecordedConsent,
  type RegisteredFarm,
  type RegisteredFarmer,
  shareableIdStream,
} from '@cropcover/domain';
import {
  type EventStore,
  type ExpectedRevision,
  type GlobalPosition,
  WrongExpectedRevisionError,
} from '@cropcover/eventstore';
import { inSpan } from '@cropcover/runtime';
import { registeredFarm, registeredFarmer } from './registered';

export interface Enrolment {
  readonly farmerId: string;
  readonly farmId: string;
  readonly organizationId: string;
  readonly profile: EnrolledProfile;
  readonly attributes: FarmAttributes;
  readonly fields: readonly EnrolledField[];
  readonly consent: RecordedConsent;
}

export interface EnrolmentOutcome {
  readonly farmer: RegisteredFarmer;
  readonly farm: RegisteredFarm;
  /** Where the enrolment's events landed; undefined when the same enrolment was recorded before. */
  readonly position: GlobalPosition | undefined;
}

/** A concurrent enrolment or a taken code this many times in a row: give up with the conflict. */
const MAX_ATTEMPTS = 5;

/**
 * Records a field agent's enrolment in one atomic append (SPEC §6): the profile and the farm with their
 * shareable ids, the fields and the organization's grant with the consent evidence, so no crash leaves a
 * farmer without their farm or a farm without its consent. The same enrolment again appends nothing; a
 * concurrent one of the same farmer wins, and this one is then decided again against it.
 */
export const enrolFarmerWithFarm = (
  eventStore: EventStore,
  context: CommandContext,
  enrolment: Enrolment,
): Promise<EnrolmentOutcome> =>
  inSpan('command', { attributes: { 'cropcover.stream_id': farmerStream(enrolment.farmerId) } }, async () => {
    const farmerStreamId = farmerStream(enrolment.farmerId);
    const farmStreamId = farmStream(enrolment.farmId);
    for (let attempt = 1; ; attempt += 1) {
      const [farmer, farm] = await Promise.all([
        loadStream(eventStore, farmerStreamId, farmerAggregate),
        loadStream(eventStore, farmStreamId, farmAggregate),
      ]);
      const platformFarmerId = newShareableId('PF', randomBytes(7));
      const platformFarmId = newShareableId('PM', randomBytes(7));
      const agentSubject = context.principal.sub;
      const farmerEvents = enrolFarmer(
        { ...enrolment, platformFarmerId, agentSubject, now: context.now },
        farmer.state,
      );
      const farmEvents = enrolFarm(
        { ...enrolment, platformFarmId, ownerFarmerId: enrolment.farmerId, agentSubject, now: context.now },
        farm.state,
      );
      if (farmerEvents.length === 0 && farmEvents.length === 0)
        return { farmer: registeredFarmer(farmer.state), farm: registeredFarm(farm.state), position: undefined };
      // Each new stream claims its code in the same append, as registerWithShareableId does for one.
      const starting = (code: string, streamId: string, events: readonly DomainEvent[], expected: ExpectedRevision) =>
        events.length === 0
          ? []
          : [
              {
                streamId: shareableIdStream(code),
                events: [toNewEvent({ type: 'ShareableIdClaimed', data: { code, claimed_by: streamId } }, context)],
                expected: 'no_stream' as const,
              },
              { streamId, events: events.map((event) => toNewEvent(event, context)), expected },
            ];
      try {
        const appended = await eventStore.appendToStreams([
          ...starting(platformFarmerId, farmerStreamId, farmerEvents, farmer.expected),
          ...starting(platformFarmId, farmStreamId, farmEvents, farm.expected),
        ]);
        return {
          farmer: registeredFarmer(farmerEvents.reduce(farmerAggregate.evolve, farmer.state)),
          farm: registeredFarm(farmEvents.reduce(farmAggregate.evolve, farm.state)),
          position: appended.at(-1)!.position,
        };
      } catch (error) {
        // A taken code draws again; a concurrent enrolment of the same farmer is decided against.
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  });

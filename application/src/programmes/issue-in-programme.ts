import type { PolicyEvent } from '@cropcover/contracts';
import {
  DomainError,
  exposureOfPolicy,
  type IssuedPolicy,
  initialPolicy,
  type Policy,
  type Programme,
  policyAggregate,
  policyStream,
  programmeAggregate,
  programmeStream,
  reserveExposure,
} from '@cropcover/domain';
import { type EventStore, type GlobalPosition, WrongExpectedRevisionError } from '@cropcover/eventstore';
import { inSpan } from '@cropcover/runtime';
import type { CommandContext } from '../command-context';
import { toNewEvent } from '../event-envelope';
import { loadStream, type StreamSnapshot } from '../handle-command';
import { inStreamTurn } from '../stream-turns';

export interface IssuedInProgramme {
  readonly state: IssuedPolicy;
  readonly position: GlobalPosition;
}

/** Every issue against one programme waits for the one before it to be written: a burst of 50 on one
 *  programme across two processes loses a race at most once per write of the other process. */
const MAX_ATTEMPTS = 100;

/** The last state of each programme this process wrote to: an issue reads only the programme's events
 *  after it (a default programme holds a reservation per policy in force), never the whole stream. */
const programmeSnapshots = new Map<string, StreamSnapshot<Programme>>();

const pauseBeforeRetry = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * Math.min(attempt, 10)));

/**
 * Issues a new policy inside its programme's consistency boundary (SPEC §7 "Binding check"): the policy is
 * decided, its exposure checked against the programme's limits as they stand at the programme stream's
 * revision, and `ExposureReserved` appended to `programme-<id>` at that revision in the same atomic
 * `appendToStreams` as `PolicyIssued` (one transaction on PostgreSQL, one multi-stream append on KurrentDB
 * 25.1+). A concurrent issue that moved the programme first makes this one decide again on the newer
 * committed figures, so the writes that pass are exactly those that fit. A refusal appends nothing.
 */
export const issueInProgramme = (
  eventStore: EventStore,
  policyId: string,
  decideIssue: (state: Policy) => PolicyEvent[],
  context: CommandContext,
): Promise<IssuedInProgramme> => {
  // The programme is known once the policy is decided (the default one depends on its currency).
  const decided = decideIssue(initialPolicy);
  const issued = decided.find((event) => event.type === 'PolicyIssued');
  if (issued?.type !== 'PolicyIssued' || issued.data.programme_id === undefined) {
    throw new Error('issuing a policy decided no PolicyIssued with its programme');
  }
  const streamId = programmeStream(issued.data.programme_id);
  return inSpan('command', { attributes: { 'cropcover.stream_id': streamId } }, () =>
    inStreamTurn(streamId, () => reserveAndIssue(eventStore, policyId, decided, streamId, context)),
  );
};

const reserveAndIssue = async (
  eventStore: EventStore,
  policyId: string,
  decided: PolicyEvent[],
  programmeStreamId: string,
  context: CommandContext,
): Promise<IssuedInProgramme> => {
  const policy = decided.reduce(policyAggregate.evolve, initialPolicy);
  if (policy.status === 'not_issued') throw new Error('a PolicyIssued left the policy not issued');
  const exposure = exposureOfPolicy(policy);
  const programmeId = programmeStreamId.slice('programme-'.length);
  const policyEvents = decided.map((event) => toNewEvent(event, context));
  const load = () =>
    loadStream(eventStore, programmeStreamId, programmeAggregate, programmeSnapshots.get(programmeStreamId));
  let programme = await load();
  for (let attempt = 1; ; attempt += 1) {
    const reserved = reserveExposure(
      { actor: context.actor, programmeId, exposure, now: context.now },
      programme.state,
    );
    try {
      const [reservedAt, issuedAt] = await eventStore.appendToStreams([
        {
          streamId: programmeStreamId,
          events: reserved.map((event) => toNewEvent(event, context)),
          expected: programme.expected,
        },
        { streamId: policyStream(policyId), events: policyEvents, expected: 'no_stream' },
      ]);
      programmeSnapshots.set(programmeStreamId, {
        state: reserved.reduce(programmeAggregate.evolve, programme.state),
        revision: reservedAt!.nextExpectedRevision,
        position: reservedAt!.position,
      });
      return { state: policy, position: issuedAt!.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (error.streamId !== programmeStreamId) {
        throw new DomainError('conflict', 'policy_exists', `policy ${policyId} already exists`);
      }
      if (attempt >= MAX_ATTEMPTS) throw error;
      await pauseBeforeRetry(attempt);
      programme = await load();
    }
  }
};

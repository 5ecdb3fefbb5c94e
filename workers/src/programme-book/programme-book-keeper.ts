import {
  type CommandContext,
  decodeEvent,
  handleCommand,
  isOneOf,
  type LoadedStream,
  loadStream,
  type StreamSnapshot,
} from '@cropcover/application';
import type { ExposureReleaseReason, PolicyEvent } from '@cropcover/contracts';
import {
  type Aggregate,
  type IssuedPolicy,
  ledgerMovementsOf,
  policyAggregate,
  policyStream,
  programmeAggregate,
  programmeStream,
  recordLoss,
  recordPremium,
  reinsuranceLedgerAggregate,
  reinsuranceStream,
  releaseExposure,
} from '@cropcover/domain';
import type { EventStore, RecordedEvent } from '@cropcover/eventstore';
import type { Projection } from '@cropcover/projector';
import type { Clock } from '@cropcover/runtime';

/** Its checkpoint's name. Not a read-model projection: a rebuild must not replay it (though a replay would
 *  record nothing: every command it runs is idempotent). */
export const PROGRAMME_BOOK_KEEPER_NAME = 'programme-book-keeper';

/** The subject its events carry as `actor`. */
export const BOOK_KEEPER_SUBJECT = 'system:programme-book';

/** The policy events that move a programme's book: what ends a policy (releasing its exposure) and what
 *  the cession ledger follows (premium at issue and lapse, losses at payouts and overpayments). */
const MOVES_THE_BOOK = isOneOf(
  new Set<PolicyEvent['type']>([
    'PolicyIssued',
    'PolicyLapsed',
    'PolicyClosed',
    'PolicyExpired',
    'PayoutApproved',
    'PayoutOverpaymentRecorded',
  ]),
);

/** An evaluation that finds something due may find a cover due again what it was paid after an
 *  overpayment: its loss is back at what was paid, and stop-loss and cat XL recoveries are recomputed
 *  (SPEC §7). One that finds nothing due cannot (nothing is due of a cover paid more than 0), so the
 *  monitor's daily evaluations of quiet policies are passed over without reading their streams. */
const MAY_BE_DUE_AGAIN = (recorded: RecordedEvent): boolean =>
  recorded.type === 'TriggerEvaluated' && ((recorded.data as { amount_due_minor?: number }).amount_due_minor ?? 0) > 0;

const RELEASES: Partial<Record<PolicyEvent['type'], ExposureReleaseReason>> = {
  PolicyLapsed: 'lapsed',
  PolicyClosed: 'closed',
  PolicyExpired: 'closed',
};

/**
 * Follows the log and keeps each programme's book with its policies (SPEC §7): a lapse or close releases
 * the policy's exposure on `programme-<id>`; an issue, lapse, payout, overpayment or evaluation finding a
 * cover due again what it was paid records its premium or loss movement, and every treaty's cession, on `reinsurance-<id>`. Each command is idempotent (a
 * release of what is not reserved, a movement already recorded or older than the one recorded: nothing),
 * so a batch run again after a crash records nothing twice. The last state of each stream it wrote is
 * kept, so a command reads only the events after it.
 */
export const programmeBookKeeper = (eventStore: EventStore, clock: Clock): Projection => {
  const snapshots = new Map<string, StreamSnapshot<unknown>>();

  const command = async <State, Event extends { type: string; data: unknown }>(
    streamId: string,
    aggregate: Aggregate<State, Event>,
    decide: (state: State) => Event[],
    context: CommandContext,
  ): Promise<void> => {
    const snapshot = snapshots.get(streamId) as StreamSnapshot<State> | undefined;
    const loaded: LoadedStream<State> = await loadStream(eventStore, streamId, aggregate, snapshot);
    const outcome = await handleCommand(eventStore, streamId, aggregate, decide, context, loaded);
    if (typeof outcome.expected === 'number' && outcome.position !== undefined) {
      snapshots.set(streamId, { state: outcome.state, revision: outcome.expected, position: outcome.position });
    }
  };

  /** The policy as it stood right after the event. */
  const policyAt = async (recorded: RecordedEvent): Promise<IssuedPolicy | undefined> => {
    const events = await eventStore.readStream(recorded.streamId, { limit: recorded.revision + 1 });
    const policy = events.reduce(
      (state, event) => policyAggregate.evolve(state, decodeEvent(event) as PolicyEvent),
      policyAggregate.initial,
    );
    return policy.status === 'not_issued' ? undefined : policy;
  };

  const keep = async (recorded: RecordedEvent): Promise<void> => {
    const policy = await policyAt(recorded);
    const programmeId = policy?.issued.programme_id;
    if (policy === undefined || programmeId === undefined) return;
    const now = clock.now();
    const context: CommandContext = {
      principal: { sub: BOOK_KEEPER_SUBJECT, organizationId: policy.issued.organization_id, roles: [] },
      actor: { subject: BOOK_KEEPER_SUBJECT, organizationId: policy.issued.organization_id, isAdmin: false, roles: [] },
      requestId: recorded.metadata.event_id,
      correlationId: recorded.metadata.correlation_id,
      now,
    };
    const event = decodeEvent(recorded) as PolicyEvent;
    const reason = RELEASES[event.type];
    if (reason !== undefined) {
      await command(
        programmeStream(programmeId),
        programmeAggregate,
        (state) => releaseExposure({ policyId: policy.issued.policy_id, reason, now }, state),
        context,
      );
    }
    const movements = ledgerMovementsOf({
      event,
      eventId: recorded.metadata.event_id,
      revision: recorded.revision,
      policy,
      programmeId,
      now,
    });
    for (const movement of movements) {
      await command(
        reinsuranceStream(programmeId),
        reinsuranceLedgerAggregate,
        (ledger) =>
          movement.kind === 'premium' ? recordPremium(movement.command, ledger) : recordLoss(movement.command, ledger),
        context,
      );
    }
  };

  return {
    name: PROGRAMME_BOOK_KEEPER_NAME,
    tables: [],
    apply: async (_trx, events) => {
      for (const recorded of events) {
        if (policyStream.idOf(recorded.streamId) === undefined) continue;
        if (MOVES_THE_BOOK(recorded) || MAY_BE_DUE_AGAIN(recorded)) await keep(recorded);
      }
    },
  };
};

import { randomUUID } from 'node:crypto';
import { createWakeableIdle } from '@cropcover/runtime';
import { createAttemptRecorder } from './attempt-recorder';
import {
  attemptDelivery,
  type ClaimedDelivery,
  claimDueDeliveries,
  type DeliveryAttemptDeps,
  LEASE_RENEWAL_MS,
  releaseLeases,
  renewLeases,
} from './delivery-attempt';
import type { DispatcherMetrics } from './dispatcher-metrics';
import type { WebhookSender } from './webhook-request';

/** How often an idle sender looks for retries that came due; recorded deliveries and finished sends wake
 *  it at once. */
const IDLE_POLL_MS = 250;
/** Deliveries of one endpoint leased at once, by every dispatcher together, as a multiple of what may be
 *  in flight to it: enough to keep its sends going between claims, not so many that one endpoint's
 *  backlog sits leased in one process while others have room. */
const LEASED_PER_SENDING = 16;

export interface SendingLimits {
  /** WEBHOOK_SENDS_AT_ONCE: deliveries this process holds (in flight or next in line) at once. */
  readonly atOnce: number;
  /** WEBHOOK_SENDS_PER_ENDPOINT: requests in flight from this process to one endpoint (URL) at once. */
  readonly perEndpoint: number;
}

export interface DeliverySending {
  /** New deliveries are due, or room was made: look again now rather than at the next poll. */
  wake(): void;
  /** Stops claiming; sends in flight are abandoned, their deliveries and those not sent yet given back,
   *  and made again later. */
  stop(): Promise<void>;
}

/** Claims due deliveries in batches, as many as there is room for, and sends them at once, each endpoint's
 *  oldest first and never more than `perEndpoint` at a time to one endpoint; each finished send makes room
 *  for the next. Attempts are recorded in batches. */
export const startDeliverySending = (
  deps: DeliveryAttemptDeps,
  limits: SendingLimits,
  metrics: DispatcherMetrics,
): DeliverySending => {
  const stopping = new AbortController();
  const recorder = createAttemptRecorder(deps.db, deps.eventStore, deps.logger, stopping.signal);
  /** Claimed deliveries not sent yet, per endpoint, in the order claimed (oldest due first). */
  const waitingOf = new Map<string, ClaimedDelivery[]>();
  const sendingTo = new Map<string, number>();
  const sends = new Set<Promise<void>>();
  /** Deliveries held (waiting or in flight) per claim's lease, to renew and, when stopping, give back. */
  const heldOfLease = new Map<string, number>();
  let held = 0;
  /** A renewal failed: the leases held may have run out, and one of their deliveries, still this
   *  process's, could be claimed again beside itself. They are renewed before the next claim. */
  let leasesLapsed = false;
  const rest = createWakeableIdle();
  const wake = (): void => rest.wake();

  const letGo = (delivery: ClaimedDelivery): void => {
    held -= 1;
    const left = (heldOfLease.get(delivery.lease_id) ?? 1) - 1;
    if (left === 0) heldOfLease.delete(delivery.lease_id);
    else heldOfLease.set(delivery.lease_id, left);
  };

  const send = (delivery: ClaimedDelivery): void => {
    const { url } = delivery;
    sendingTo.set(url, (sendingTo.get(url) ?? 0) + 1);
    // The endpoint's place is given back as soon as its receiver answered, not once the attempt is
    // recorded: the limit is on the requests the receiver sees.
    let placeTaken = true;
    const givePlaceBack = (): void => {
      if (!placeTaken) return;
      placeTaken = false;
      sendingTo.set(url, (sendingTo.get(url) ?? 1) - 1);
      sendWhatFits(url);
    };
    const sendingOnce: WebhookSender = (request) => deps.send(request).finally(givePlaceBack);
    const sending = attemptDelivery({ ...deps, send: sendingOnce }, recorder, delivery, stopping.signal)
      .then(
        (outcome) => {
          if (outcome) metrics.attempts.inc({ outcome });
        },
        (error: unknown) => {
          if (!stopping.signal.aborted)
            deps.logger.error(
              { err: error, event_id: delivery.event_id, webhook_id: delivery.webhook_id },
              'webhook delivery failed to be recorded; it is sent again once its lease runs out',
            );
        },
      )
      .finally(() => {
        givePlaceBack();
        sends.delete(sending);
        if (stopping.signal.aborted) return;
        letGo(delivery);
        wake();
      });
    sends.add(sending);
  };

  /** Starts the endpoint's next deliveries while it has room. */
  const sendWhatFits = (url: string): void => {
    if (stopping.signal.aborted) return;
    const waiting = waitingOf.get(url) ?? [];
    while (waiting.length > 0 && (sendingTo.get(url) ?? 0) < limits.perEndpoint) {
      const next = waiting.shift();
      if (next) send(next);
    }
    if (waiting.length === 0) waitingOf.delete(url);
  };

  const take = (claimed: readonly ClaimedDelivery[], leaseId: string): void => {
    if (claimed.length === 0) return;
    held += claimed.length;
    heldOfLease.set(leaseId, claimed.length);
    for (const delivery of claimed) {
      const waiting = waitingOf.get(delivery.url) ?? [];
      waitingOf.set(delivery.url, waiting);
      waiting.push(delivery);
    }
    for (const url of new Set(claimed.map((delivery) => delivery.url))) sendWhatFits(url);
  };

  const claimLoop = async (): Promise<void> => {
    while (!stopping.signal.aborted) {
      const room = limits.atOnce - held;
      // A delivery whose outcome is not recorded yet, or whose lease may have run out, would be claimed
      // and sent again under the same webhook-id: its record and its lease come first.
      if (room > 0 && recorder.unrecorded() === 0 && (!leasesLapsed || (await renewHeld()))) {
        const leaseId = randomUUID();
        try {
          const claimed = await claimDueDeliveries(deps.db, deps.clock.now(), leaseId, {
            count: room,
            perEndpoint: limits.perEndpoint * LEASED_PER_SENDING,
          });
          if (stopping.signal.aborted) await releaseLeases(deps.db, [leaseId]);
          else take(claimed, leaseId);
        } catch (error) {
          if (stopping.signal.aborted) break;
          deps.logger.error({ err: error }, 'could not claim webhook deliveries; retrying');
        }
      }
      // Whatever could be claimed was: more comes due only with new deliveries, a finished send or a
      // retry's time. A wake that came while claiming ends it at once.
      await rest.idle(IDLE_POLL_MS);
    }
  };

  /** Renews every lease held; false when the database did not answer. */
  const renewHeld = (): Promise<boolean> =>
    renewLeases(deps.db, deps.clock.now(), [...heldOfLease.keys()]).then(
      () => {
        leasesLapsed = false;
        return true;
      },
      (error: unknown) => {
        leasesLapsed = true;
        deps.logger.warn({ err: error }, 'could not renew webhook delivery leases');
        return false;
      },
    );
  const renewal = setInterval(() => void renewHeld(), LEASE_RENEWAL_MS);

  const claiming = claimLoop();
  return {
    wake,
    stop: async () => {
      stopping.abort(new Error('webhook dispatcher stopping'));
      rest.stop();
      clearInterval(renewal);
      await claiming;
      await Promise.all(sends);
      // Every delivery held and not recorded still has its claim's lease: given back in one statement.
      await releaseLeases(deps.db, [...heldOfLease.keys()]).catch((error: unknown) =>
        deps.logger.warn({ err: error }, 'could not give webhook deliveries back; their leases run out instead'),
      );
    },
  };
};

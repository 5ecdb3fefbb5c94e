import { randomUUID } from 'node:crypto';
import { pauseUnlessAborted } from '@cropcover/runtime';
import { createAttemptRecorder } from './attempt-recorder';
import { attemptDelivery, claimDueDeliveries, type DeliveryAttemptDeps } from './delivery-attempt';
import type { DispatcherMetrics } from './dispatcher-metrics';

/** How often an idle sender looks for retries that came due; recorded deliveries and finished sends wake
 *  it at once. */
const IDLE_POLL_MS = 250;

export interface SendingLimits {
  /** WEBHOOK_SENDS_AT_ONCE: deliveries this process sends at once, to all endpoints together. */
  readonly atOnce: number;
  /** WEBHOOK_SENDS_PER_ENDPOINT: deliveries in flight to one URL at once, across all dispatchers. */
  readonly perEndpoint: number;
}

export interface DeliverySending {
  /** New deliveries are due, or room was made: look again now rather than at the next poll. */
  wake(): void;
  /** Stops claiming; sends in flight are abandoned, their deliveries given back, and made again later. */
  stop(): Promise<void>;
}

/** Claims due deliveries in batches, as many as there is room for within the limits, and sends each as
 *  soon as it is claimed; each finished send makes room for the next claim. Attempts are recorded in
 *  batches. */
export const startDeliverySending = (
  deps: DeliveryAttemptDeps,
  limits: SendingLimits,
  metrics: DispatcherMetrics,
): DeliverySending => {
  const stopping = new AbortController();
  const recorder = createAttemptRecorder(deps.db, deps.eventStore);
  const inFlight = new Set<Promise<void>>();
  let nudge = new AbortController();
  const wake = (): void => nudge.abort();

  const send = (delivery: Parameters<typeof attemptDelivery>[2]): void => {
    const sending = attemptDelivery(deps, recorder, delivery, stopping.signal)
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
        inFlight.delete(sending);
        wake();
      });
    inFlight.add(sending);
  };

  const run = async (): Promise<void> => {
    while (!stopping.signal.aborted) {
      // A wake that comes while claiming is kept for the pause after it.
      const nudged = nudge.signal;
      const room = limits.atOnce - inFlight.size;
      if (room > 0) {
        try {
          const deliveries = await claimDueDeliveries(deps.db, deps.clock.now(), randomUUID(), {
            count: room,
            perEndpoint: limits.perEndpoint,
          });
          for (const delivery of deliveries) send(delivery);
        } catch (error) {
          if (stopping.signal.aborted) break;
          deps.logger.error({ err: error }, 'could not claim webhook deliveries; retrying');
        }
      }
      // Whatever could be claimed was: more comes due only with new deliveries, a finished send (room, or
      // an endpoint below its limit again) or a retry's time.
      if (!nudged.aborted) await pauseUnlessAborted(IDLE_POLL_MS, AbortSignal.any([nudged, stopping.signal]));
      if (nudged.aborted) nudge = new AbortController();
    }
  };

  const running = run();
  return {
    wake,
    stop: async () => {
      stopping.abort(new Error('webhook dispatcher stopping'));
      await running;
      await Promise.all(inFlight);
    },
  };
};

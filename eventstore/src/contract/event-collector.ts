import type { AllStreamStart, EventStore, GlobalPosition, RecordedEvent, SubscriptionOptions } from '../port';

/** Subscribes to $all and keeps every batch it is handed, for tests to inspect. */
export const collectEvents = (
  store: EventStore,
  after: GlobalPosition | AllStreamStart,
  options?: SubscriptionOptions,
) => {
  const received: RecordedEvent[] = [];
  const subscription = store.subscribeToAll(
    after,
    async (batch) => {
      received.push(...batch);
    },
    options,
  );
  return {
    received,
    /** Event ids of the received events whose stream starts with `prefix`, in delivery order. */
    idsOf: (prefix: string): string[] =>
      received.filter((event) => event.streamId.startsWith(prefix)).map((event) => event.metadata.event_id),
    stop: () => subscription.stop(),
  };
};

import type { Subscription } from './port';

/** The subscriptions a store has running, so that closing the store stops them first. */
export const createSubscriptionSet = () => {
  const running = new Set<Subscription>();
  return {
    track: (subscription: Subscription): Subscription => {
      const tracked: Subscription = {
        stop: async () => {
          await subscription.stop();
          running.delete(tracked);
        },
      };
      running.add(tracked);
      return tracked;
    },
    stopAll: async (): Promise<void> => {
      await Promise.all([...running].map((subscription) => subscription.stop()));
    },
  };
};

import type { ReadModels } from '@cropcover/read-store';
import type { Kysely } from 'kysely';
import { Counter, Gauge, type Registry } from 'prom-client';

export type DeliveryOutcome = 'delivered' | 'retry_scheduled' | 'failed' | 'gone';

export interface DispatcherMetrics {
  readonly attempts: Counter<'outcome'>;
}

/** Attempts by outcome, and the backlog (deliveries still to be sent, counted when scraped). */
export const createDispatcherMetrics = (db: Kysely<ReadModels>, registry?: Registry): DispatcherMetrics => {
  const registers = registry ? [registry] : [];
  const backlog: Gauge = new Gauge({
    name: 'webhook_delivery_backlog',
    help: 'Webhook deliveries waiting for their first attempt or a retry.',
    registers,
    collect: async () => {
      const { pending } = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<string>().as('pending'))
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      backlog.set(Number(pending));
    },
  });
  return {
    attempts: new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome: delivered, retry_scheduled, failed (given up), gone (410).',
      labelNames: ['outcome'],
      registers,
    }),
  };
};

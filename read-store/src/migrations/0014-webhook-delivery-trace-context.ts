import type { Kysely } from 'kysely';

// A breach is recorded as a delivery in one place (the Kafka consumer or the log reader) and sent later,
// maybe by another dispatcher process: the delivery keeps the W3C trace context it was recorded in, so
// its sends continue the trace of the request that caused the breach. Null when tracing was off.
export const webhookDeliveryTraceContext = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('webhook_deliveries')
      .addColumn('traceparent', 'text')
      .addColumn('tracestate', 'text')
      .execute();
  },
};

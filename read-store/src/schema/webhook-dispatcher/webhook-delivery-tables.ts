import type { ColumnType } from 'kysely';
import type { NullableTimestamp, PositionColumn, Timestamp } from '../../columns';

/** The dispatcher's own view of the subscriptions, kept in log order with the breaches it fans out, so a
 *  breach reaches exactly the subscriptions active before it in the log. */
export interface WebhookTargetsTable {
  webhook_id: string;
  organization_id: string;
  url: string;
  is_active: boolean;
  /** The position of its WebhookSubscriptionCreated in the log, as numeric text. */
  created_commit_position: string;
  created_prepare_position: string;
}

/** One event to one subscription; its payload is fixed when recorded (and, once, given its breach's proof
 *  before the first attempt), so every retry sends the same body. */
export interface WebhookDeliveriesTable {
  event_id: string;
  webhook_id: string;
  policy_id: string;
  payload: string;
  /** pending, delivered, failed or abandoned. */
  status: string;
  attempt_count: number;
  /** Due time of the next attempt; null once the delivery is settled. */
  next_attempt_at: NullableTimestamp;
  created_at: Timestamp;
  /** The sender holding it now, until `leased_until`; both null while nobody is sending it. */
  lease_id: string | null;
  leased_until: NullableTimestamp;
  /** W3C Trace Context the breach was recorded in, which its sends continue; null when tracing was off. */
  traceparent: string | null;
  tracestate: string | null;
  /** Not sent before a signed checkpoint covers the breach (SPEC §7 Audit); its payload then carries the proof. */
  awaiting_checkpoint: ColumnType<boolean, boolean | undefined, boolean>;
  /** Where the breach is in the log; null for deliveries recorded before the audit log. */
  breach_commit_position: PositionColumn | null;
  breach_prepare_position: PositionColumn | null;
}

export interface WebhookDeliveryAttemptsTable {
  event_id: string;
  webhook_id: string;
  attempt: number;
  attempted_at: Timestamp;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

/** Where each breach sits in the log, noted by the log reader when breaches come from Kafka: a breach
 *  message names its stream and revision, not its position. */
export interface WebhookBreachPositionsTable {
  event_id: string;
  /** Numeric text, as the targets' positions. */
  commit_position: string;
  prepare_position: string;
}

export interface WebhookDeliveryTables {
  webhook_targets: WebhookTargetsTable;
  webhook_breach_positions: WebhookBreachPositionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
}

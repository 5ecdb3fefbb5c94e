import { AuditCheckpoint, InclusionProof } from '../audit/audit-log';
import { DateTime } from '../common';
import { CalendarDate } from '../insurance/calendar-date';
import { PageNumber, PageSize } from '../insurance/pagination';
import { Peril, TriggerIndex } from '../insurance/peril';
import { z } from '../zod';
import { TRIGGER_BREACHED_EVENT_TYPE } from './events';

/** The JSON body of a `trigger.breached` delivery (Standard Webhooks: type, timestamp, data). */
export const DeliveryAudit = InclusionProof.extend({ checkpoint: AuditCheckpoint })
  .describe("The breach event's leaf index and inclusion proof in the tree of `checkpoint`")
  .openapi('DeliveryAudit');
export type DeliveryAudit = z.infer<typeof DeliveryAudit>;

export const TriggerBreachedDelivery = z
  .object({
    type: z.literal(TRIGGER_BREACHED_EVENT_TYPE),
    timestamp: DateTime,
    data: z.object({
      event_id: z.string(),
      policy_id: z.string(),
      organization_id: z.string(),
      farm_id: z.string(),
      field_id: z.string(),
      peril: Peril,
      trigger_index: TriggerIndex,
      observed_value: z.number(),
      threshold: z.number(),
      severity: z.number(),
      as_of: CalendarDate,
      /** The governing phase of a cover of several phases (its figures are the ones above); absent for a
       *  single phase. */
      phase: z.string().optional(),
      evaluation_id: z.string(),
      /** null when the breach pays nothing more than was already paid. */
      payout: z
        .object({ payout_id: z.string(), amount: z.number(), currency: z.string(), status: z.literal('approved') })
        .nullable(),
      /** Where the breach is in the audit log (SPEC §7 Audit): its inclusion proof against a signed
       *  checkpoint, sent only once one covers it. Absent where the audit log is off. */
      audit: DeliveryAudit.optional(),
    }),
  })
  .openapi('TriggerBreachedDelivery');
export type TriggerBreachedDelivery = z.infer<typeof TriggerBreachedDelivery>;

/** `pending`: waiting for its next attempt; `abandoned`: the subscription was deactivated first. */
export const DeliveryStatus = z.enum(['pending', 'delivered', 'failed', 'abandoned']);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

export const DeliveryAttempt = z
  .object({
    attempt: z.number().int().positive(),
    attempted_at: DateTime,
    /** null when no HTTP answer came (connection refused, timeout, address refused). */
    status_code: z.number().int().nullable(),
    latency_ms: z.number().int().nonnegative(),
    error: z.string().nullable(),
  })
  .openapi('WebhookDeliveryAttempt');
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

export const WebhookDelivery = z
  .object({
    event_id: z.string(),
    event_type: z.literal(TRIGGER_BREACHED_EVENT_TYPE),
    policy_id: z.string(),
    status: DeliveryStatus,
    attempt_count: z.number().int().nonnegative(),
    /** When the next attempt is due; null once delivered, failed or abandoned. */
    next_attempt_at: DateTime.nullable(),
    created_at: DateTime,
    attempts: z.array(DeliveryAttempt),
  })
  .openapi('WebhookDelivery');
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveriesQuery = z.strictObject({ page: PageNumber, page_size: PageSize });
export type WebhookDeliveriesQuery = z.infer<typeof WebhookDeliveriesQuery>;

export const WebhookDeliveryList = z
  .object({
    webhook_id: z.string(),
    items: z.array(WebhookDelivery),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .openapi('WebhookDeliveryList');
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

/** How deliveries are signed, retried and stopped, as the API reference tells a subscriber. */
export const WEBHOOK_DELIVERY_RULES =
  'Deliveries are POSTed as Standard Webhooks: headers webhook-id (the event id, stable across retries), ' +
  'webhook-timestamp (unix seconds) and webhook-signature (`v1,` + base64 HMAC-SHA256 over ' +
  '`{id}.{timestamp}.{body}` with the secret). 2xx is delivered; anything else is retried after 5 s, 5 min, ' +
  '30 min, 2 h, 5 h, 10 h and 10 h; 410 deactivates the subscription. Redirects are not followed.';

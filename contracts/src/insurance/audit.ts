import { DateTime } from '../common';
import { z } from '../zod';
import { PageNumber, PageSize } from './pagination';

// GET /insurance/policies/{policy_id}/events: the policy's stream as the log holds it (SPEC §7 audit).

export const PolicyEventsQuery = z.strictObject({ page: PageNumber, page_size: PageSize });
export type PolicyEventsQuery = z.infer<typeof PolicyEventsQuery>;

export const AuditEventMetadata = z
  .object({
    event_id: z.string(),
    occurred_at: DateTime,
    /** The token subject that caused the event. */
    actor: z.string(),
    organization_id: z.string().nullable(),
    correlation_id: z.string(),
    causation_id: z.string().nullable(),
    schema_version: z.number().int(),
    platform_version: z.string(),
    traceparent: z
      .string()
      .optional()
      .describe(
        'W3C Trace Context of the append that wrote the event, when tracing was on: the trace of the request that caused it. Events written with tracing off, or before it existed, have none.',
      ),
    tracestate: z.string().optional().describe('W3C Trace Context `tracestate`, when the trace has one.'),
  })
  .openapi('AuditEventMetadata');
export type AuditEventMetadata = z.infer<typeof AuditEventMetadata>;

export const AuditEvent = z
  .object({
    /** 0-based position of the event in the policy's stream. */
    revision: z.number().int().nonnegative(),
    type: z.string(),
    /** The payload as recorded (upcast to the current shape). */
    data: z.record(z.string(), z.unknown()),
    metadata: AuditEventMetadata,
    occurred_at: DateTime,
  })
  .openapi('AuditEvent');
export type AuditEvent = z.infer<typeof AuditEvent>;

export const PolicyEventPage = z
  .object({
    policy_id: z.string(),
    items: z.array(AuditEvent),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .openapi('PolicyEventPage');
export type PolicyEventPage = z.infer<typeof PolicyEventPage>;

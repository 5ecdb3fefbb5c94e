import { AuditCheckpoint, Base64Hash, InclusionProof } from '../audit/audit-log';
import { DateTime } from '../common';
import { z } from '../zod';
import { PageNumber, PageSize, queryFlag } from './pagination';

// GET /insurance/policies/{policy_id}/events: the policy's stream as the log holds it (SPEC §7 audit).

export const PolicyEventsQuery = z.strictObject({ page: PageNumber, page_size: PageSize, proofs: queryFlag() });
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
    // With ?proofs=true (SPEC §7 Audit): what a verifier recomputes the leaf from, and its proof.
    stored: z
      .object({ data: z.string(), metadata: z.string() })
      .optional()
      .describe('With proofs: the exact texts the leaf hashed (RFC 8785 canonical JSON), as stored, never upcast'),
    prev: Base64Hash.optional().describe("With proofs: the leaf hash of the stream's previous revision (zeros at 0)"),
    leaf_hash: Base64Hash.optional().describe('With proofs: SHA-256(0x00 ‖ canonical envelope), docs/audit-bundle.md'),
    leaf_index: z
      .number()
      .int()
      .nullable()
      .optional()
      .describe("With proofs: its index in the log's tree; null until the integrator has taken it"),
    proof: InclusionProof.nullable()
      .optional()
      .describe("With proofs: inclusion in the page's checkpoint; null when that checkpoint does not cover it yet"),
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
    checkpoint: AuditCheckpoint.nullable()
      .optional()
      .describe('With proofs: the newest signed checkpoint, which every proof is against; null before the first'),
  })
  .openapi('PolicyEventPage');
export type PolicyEventPage = z.infer<typeof PolicyEventPage>;

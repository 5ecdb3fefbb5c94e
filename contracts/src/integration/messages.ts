import { AuditCheckpoint } from '../audit/audit-log';
import { DateTime } from '../common';
import { AuditEventMetadata, IndexSourceEvent, PolicyEvent, TriggerBreached } from '../insurance';
import { ProgrammeEvent } from '../programmes/events';
import { FarmEvent, FarmerEvent } from '../registry';
import { ReinsuranceEvent } from '../reinsurance/events';
import { z } from '../zod';

// The values of the integration topics: one event of the log as JSON, the event's own `type` and
// `data` (the shapes of the insurance and registry event schemas) beside where it sits in the log.
// Consumers should ignore fields they do not know: fields may be added within a topic version.

const LoggedEvent = z.object({
  /** The event's id, also the `ce_id` header: consumers dedupe on it (delivery is at least once). */
  event_id: z.string(),
  stream_id: z.string(),
  /** 0-based position of the event in its stream: per key, messages arrive in this order. */
  stream_revision: z.number().int().nonnegative(),
  occurred_at: DateTime,
  metadata: AuditEventMetadata,
});

export const PolicyEventMessage = z
  .intersection(LoggedEvent.extend({ policy_id: z.string() }), PolicyEvent)
  .openapi('PolicyEventMessage');
export type PolicyEventMessage = z.infer<typeof PolicyEventMessage>;

/** Index sources sit beside farms and farmers: reference data a policy names, which a downstream system
 *  needs to read the policy's `data_sources`. */
export const RegistryAggregateType = z.enum(['farm', 'farmer', 'index_source']).openapi('RegistryAggregateType');
export type RegistryAggregateType = z.infer<typeof RegistryAggregateType>;

export const RegistryEventMessage = z
  .intersection(
    LoggedEvent.extend({ aggregate_type: RegistryAggregateType, aggregate_id: z.string() }),
    z.union([FarmEvent, FarmerEvent, IndexSourceEvent]),
  )
  .openapi('RegistryEventMessage');
export type RegistryEventMessage = z.infer<typeof RegistryEventMessage>;

export const TriggerBreachMessage = LoggedEvent.extend({
  policy_id: z.string(),
  type: z.literal('TriggerBreached'),
  data: TriggerBreached,
}).openapi('TriggerBreachMessage');
export type TriggerBreachMessage = z.infer<typeof TriggerBreachMessage>;

/** Which stream of a programme the event is from: the programme's own (its limits and reserved
 *  exposure) or its reinsurance (treaties and the cession ledger). */
export const ProgrammeStreamKind = z.enum(['programme', 'reinsurance']).openapi('ProgrammeStreamKind');
export type ProgrammeStreamKind = z.infer<typeof ProgrammeStreamKind>;

export const ProgrammeEventMessage = z
  .intersection(
    LoggedEvent.extend({ programme_id: z.string(), stream_kind: ProgrammeStreamKind }),
    z.union([ProgrammeEvent, ReinsuranceEvent]),
  )
  .openapi('ProgrammeEventMessage');
export type ProgrammeEventMessage = z.infer<typeof ProgrammeEventMessage>;

/** A checkpoint of the audit log as the sink holds it (SPEC §7 Audit): `note` is the C2SP signed note, which
 *  a consumer checks with a key of `GET /audit/keys` before trusting `size` and `root`. Kafka is for
 *  distribution only: retention may drop a message, the checkpoint sink keeps every one. */
export const AuditCheckpointMessage = AuditCheckpoint.extend({
  signed_at: DateTime.describe('When the log signed it'),
}).openapi('AuditCheckpointMessage');
export type AuditCheckpointMessage = z.infer<typeof AuditCheckpointMessage>;

/** Kafka headers of every message: CloudEvents 1.0 in binary content mode. */
export const IntegrationMessageHeaders = z
  .object({
    /** = event_id; on the checkpoint topic `<origin>/<size>`. */
    ce_id: z.string(),
    /** `cropcover.<event type>`, e.g. `cropcover.TriggerBreached`; `cropcover.CheckpointSigned` on the
     *  checkpoint topic. */
    ce_type: z.string().regex(/^cropcover\.[A-Z][A-Za-z]+$/),
    /** `urn:cropcover:<stream id>`, e.g. `urn:cropcover:policy-<policy_id>`; `urn:cropcover:audit:<origin>`
     *  on the checkpoint topic. A pattern, not startsWith:
     *  that becomes the JSON Schema format `starts_with`, which no standard validator knows. */
    ce_source: z.string().regex(/^urn:cropcover:/),
    ce_time: DateTime,
    ce_specversion: z.literal('1.0'),
    'content-type': z.literal('application/json'),
    traceparent: z
      .string()
      .regex(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/)
      .optional()
      .describe(
        'W3C Trace Context `traceparent` of the publish span, a child of the request that caused the event; only when tracing is on.',
      ),
    tracestate: z.string().optional().describe('W3C Trace Context `tracestate`, when the trace has one.'),
  })
  .openapi('IntegrationMessageHeaders');
export type IntegrationMessageHeaders = z.infer<typeof IntegrationMessageHeaders>;

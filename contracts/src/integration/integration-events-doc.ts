import { z } from '../zod';
import {
  AuditCheckpointMessage,
  IntegrationMessageHeaders,
  PolicyEventMessage,
  ProgrammeEventMessage,
  RegistryEventMessage,
  TriggerBreachMessage,
} from './messages';
import { INTEGRATION_TOPICS } from './topics';

// docs/integration-events.md is rendered from the schemas here, so the page cannot drift from what
// the publisher sends: a test compares the two, and write-integration-events-doc.ts rewrites the page.

const jsonSchemaBlock = (schema: z.ZodType): string =>
  ['```json', JSON.stringify(z.toJSONSchema(schema, { unrepresentable: 'any' }), null, 2), '```'].join('\n');

const topicSection = (topic: string, name: string, key: string, contents: string, schema: z.ZodType): string =>
  [
    `## \`${topic}\``,
    '',
    `${contents} Key: ${key}. Value: \`${name}\` (JSON, UTF-8).`,
    '',
    '<details><summary>JSON Schema</summary>',
    '',
    jsonSchemaBlock(schema),
    '',
    '</details>',
  ].join('\n');

export const renderIntegrationEventsDoc = (): string =>
  `${[
    '# Integration events (Kafka)',
    '',
    '<!-- Generated from contracts/src/integration by `npx tsx contracts/src/integration/write-integration-events-doc.ts`; do not edit by hand. -->',
    '',
    'With `KAFKA_BROKERS` set, the projector publishes every event of the log that downstream teams need',
    'to the topics below. Zod schemas of every message are in `@cropcover/contracts`',
    '(`contracts/src/integration/`); this page shows them as JSON Schema, and every service serves them as',
    'an AsyncAPI 3 document at `GET /asyncapi.json`.',
    '',
    '- **Order**: messages with the same key (one policy, farm, farmer, index source or programme) arrive in the',
    '  order of the log; `stream_revision` counts up by one per event of the stream.',
    '- **At least once**: after a broker outage or a restart, a message may arrive again, and a batch the',
    "  broker half took is sent again whole, so the raw topic can repeat a key's earlier messages after",
    '  later ones. Dedupe on the `ce_id` header (= `event_id`), keeping the first of each: what is left is',
    "  every message once, each key's in log order.",
    '- **Nothing lost**: publishing follows the log from a checkpoint that moves only once the broker has',
    '  acknowledged a batch (acks from all in-sync replicas); while Kafka is down, publishing pauses and',
    '  resumes from the checkpoint.',
    '- **Evolution**: new fields may appear within a topic version; ignore what you do not know. An',
    '  incompatible change gets a new topic (`.v2`).',
    '- **Money** is in integer minor units of `currency` (`*_minor`), as in the log.',
    '',
    '## Headers (CloudEvents 1.0, binary content mode)',
    '',
    '| Header | Value |',
    '| --- | --- |',
    '| `ce_id` | The event id (`event_id`); unique per event. |',
    '| `ce_type` | `cropcover.<event type>`, e.g. `cropcover.TriggerBreached`. |',
    '| `ce_source` | `urn:cropcover:<stream id>`, e.g. `urn:cropcover:policy-<policy_id>`. |',
    '| `ce_time` | When the event occurred (ISO 8601, UTC). |',
    '| `ce_specversion` | `1.0` |',
    '| `content-type` | `application/json` |',
    '',
    '<details><summary>JSON Schema of the headers</summary>',
    '',
    jsonSchemaBlock(IntegrationMessageHeaders),
    '',
    '</details>',
    '',
    topicSection(
      INTEGRATION_TOPICS.policyEvents,
      'PolicyEventMessage',
      '`policy_id`',
      'Every event of every policy: `PolicyIssued`, `TriggerEvaluated`, `TriggerEvaluationSkipped`, `TriggerBreached`, `PayoutApproved`, `PayoutSettled`, `PayoutOverpaymentRecorded`, `PolicyLapsed`, `PolicyClosed` (and, recorded before it, `PolicyExpired`). `PolicyIssued.farm_name` is the farmer\'s personal data (a farm name, SPEC §6): carried sealed with the key of `owner_farmer_id` (`sealed:v2:<owner_farmer_id>:<base64>`; `sealed:v1:` in events written before v2), it can become erased — after that farmer\'s `FarmerErased` no key opens it and the API shows `"[erased]"`; everything the policy pays on stays in clear. Policies issued before sealing have no `owner_farmer_id` and their `farm_name` in clear.',
      PolicyEventMessage,
    ),
    '',
    topicSection(
      INTEGRATION_TOPICS.registryEvents,
      'RegistryEventMessage',
      '`aggregate_id` (the farm, farmer or index source id)',
      "Every farm, farmer and index source event: `FarmRegistered`, `FarmUpdated`, `FarmDeactivated`, `FieldRegistered`, `FarmAccessGranted` (with the `consent` of the farmer when a field agent enrolled them), `FarmAccessRevoked`, `FarmClaimed`, `FarmLinkedToOrganization` (before grants; no longer appended), `FarmerRegistered`, `FarmerEnrolled` (by a field agent), `FarmerProfileClaimed`, `FarmerLoginLinked`, `FarmerProfileUpdated`, `FarmerErased`, `IndexSourceRegistered`. A farmer's personal fields are carried sealed, as the log stores them (`sealed:v2:<farmer_id>:<base64>` in place of each value, AES-256-GCM with the farmer's key, which never leaves the service, one operation over all of an event's personal values; `sealed:v1:` in events written before v2): `first_name`, `last_name`, `phone_number`, `whatsapp_number` of `FarmerRegistered`, of `FarmerEnrolled` and of `FarmerProfileUpdated.changes`, `name` and `location` of `FarmRegistered` and of `FarmUpdated.changes`. A field's `name` is not personal data and is carried in clear. Read them in clear through the API while the farmer allows it; after `FarmerErased` no key opens them again (the API shows `\"[erased]\"` or `null`).",
      RegistryEventMessage,
    ),
    '',
    topicSection(
      INTEGRATION_TOPICS.triggerBreaches,
      'TriggerBreachMessage',
      '`policy_id`',
      '`TriggerBreached` events only (they are on the policy topic too), for consumers such as the webhook dispatcher that need nothing else.',
      TriggerBreachMessage,
    ),
    '',
    topicSection(
      INTEGRATION_TOPICS.programmeEvents,
      'ProgrammeEventMessage',
      '`programme_id`',
      'Every event of every programme (`stream_kind: programme`: `ProgrammeCreated`, `ProgrammeUpdated`, `ExposureReserved`, `ExposureReleased`) and of its reinsurance (`stream_kind: reinsurance`: `TreatyBound`, `SubjectPremiumRecorded`, `SubjectLossRecorded`, `PremiumCeded`, `CessionRecorded`, `RecoveryRecorded`), for reinsurers, actuaries and finance. Movements of the ledger are signed: a lapse or a revision moves them back.',
      ProgrammeEventMessage,
    ),
    '',
    topicSection(
      INTEGRATION_TOPICS.auditCheckpoints,
      'AuditCheckpointMessage',
      '`origin` (the log the checkpoint is of)',
      'Each checkpoint the audit log signs (SPEC §7 Audit), once the checkpoint sink holds it, in order of size: `{origin, size, root, note, signed_at}`, `note` the C2SP signed note. Check the note with a key of `GET /audit/keys` before trusting `size` and `root`; keep the notes you receive, and `npm run audit -- verify --checkpoints` finds a truncated or forked log against them. Kafka only distributes checkpoints (retention may drop one); the checkpoint sink keeps every one. Headers: `ce_id` `<origin>/<size>`, `ce_type` `cropcover.CheckpointSigned`, `ce_source` `urn:cropcover:audit:<origin>`, `ce_time` when it was signed.',
      AuditCheckpointMessage,
    ),
  ].join('\n')}\n`;

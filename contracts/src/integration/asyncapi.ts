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

// The Kafka topics as an AsyncAPI 3 document (issue 13, item 7), generated from the zod schemas the
// publisher's messages are checked against, like docs/integration-events.md: a machine-readable contract
// a downstream team can generate a consumer from. Served at /asyncapi.json.

const DRAFT_7 = 'application/schema+json;version=draft-07';
// The shapes the publisher's check accepts (`io: 'input'`): objects stay open, as the consumer rules
// promise (new fields may appear). The output shapes close every object, and a message that joins the
// log position to the event (an allOf of two closed objects) could then match nothing.
const jsonSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { target: 'draft-7', unrepresentable: 'any', io: 'input' });

const CONSUMER_RULES = [
  'Messages with the same key arrive in the order of the log; `stream_revision` counts up by one per event of the stream.',
  'Delivery is at least once: after a broker outage or a restart a message may arrive again, and a batch the broker half took is sent again whole.',
  'Dedupe on the `ce_id` header (= `event_id`), keeping the first of each: what is left is every message once, each key’s in log order.',
  'New fields may appear within a topic version; ignore what you do not know. An incompatible change gets a new topic (`.v2`).',
  'Money is in integer minor units of `currency` (`*_minor`).',
].join(' ');

interface TopicMessage {
  readonly channel: string;
  readonly address: string;
  readonly message: string;
  readonly schema: z.ZodType;
  readonly key: string;
  readonly summary: string;
}

const TOPIC_MESSAGES: readonly TopicMessage[] = [
  {
    channel: 'policyEvents',
    address: INTEGRATION_TOPICS.policyEvents,
    message: 'PolicyEventMessage',
    schema: PolicyEventMessage,
    key: 'policy_id',
    summary:
      'Every event of every policy. `PolicyIssued.farm_name` is personal data (SPEC §6): carried sealed (`sealed:v2:<owner_farmer_id>:<base64>`; `sealed:v1:` in events written before v2) when the event names `owner_farmer_id`, and no key opens it once that farmer is erased.',
  },
  {
    channel: 'registryEvents',
    address: INTEGRATION_TOPICS.registryEvents,
    message: 'RegistryEventMessage',
    schema: RegistryEventMessage,
    key: 'aggregate_id: the farm, farmer or index source id',
    summary:
      "Every farm, farmer and index source event. A farmer's personal fields (names, phone and WhatsApp numbers, farm names and locations) are carried sealed (`sealed:v2:<farmer_id>:<base64>`, each in its place; `sealed:v1:` in events written before v2) and no key opens them once the farmer is erased (`FarmerErased`).",
  },
  {
    channel: 'triggerBreaches',
    address: INTEGRATION_TOPICS.triggerBreaches,
    message: 'TriggerBreachMessage',
    schema: TriggerBreachMessage,
    key: 'policy_id',
    summary: 'TriggerBreached events only (also on the policy topic).',
  },
  {
    channel: 'programmeEvents',
    address: INTEGRATION_TOPICS.programmeEvents,
    message: 'ProgrammeEventMessage',
    schema: ProgrammeEventMessage,
    key: 'programme_id',
    summary: 'Every event of every programme and of its reinsurance: limits, reserved exposure, treaties, cessions.',
  },
  {
    channel: 'auditCheckpoints',
    address: INTEGRATION_TOPICS.auditCheckpoints,
    message: 'AuditCheckpointMessage',
    schema: AuditCheckpointMessage,
    key: 'origin: the log the checkpoint is of',
    summary:
      'Each signed checkpoint of the audit log (C2SP signed note), once the checkpoint sink holds it; verify the note with a key of GET /audit/keys.',
  },
];

export const buildAsyncApiDocument = (version: string) => ({
  asyncapi: '3.0.0',
  info: {
    title: 'CropCover integration events',
    version,
    description: `What the projector publishes to Kafka when KAFKA_BROKERS is set. ${CONSUMER_RULES}`,
    license: { name: 'Proprietary' },
  },
  defaultContentType: 'application/json',
  servers: {
    kafka: {
      host: '{broker}',
      protocol: 'kafka',
      description: 'The deployment’s Kafka cluster (KAFKA_BROKERS).',
      variables: { broker: { default: 'localhost:9092', description: 'One of KAFKA_BROKERS (host:port).' } },
    },
  },
  channels: Object.fromEntries(
    TOPIC_MESSAGES.map(({ channel, address, message, summary }) => [
      channel,
      {
        address,
        description: summary,
        messages: { [message]: { $ref: `#/components/messages/${message}` } },
      },
    ]),
  ),
  operations: Object.fromEntries(
    TOPIC_MESSAGES.map(({ channel, message }) => [
      `publish${channel[0]!.toUpperCase()}${channel.slice(1)}`,
      {
        action: 'send',
        channel: { $ref: `#/channels/${channel}` },
        messages: [{ $ref: `#/channels/${channel}/messages/${message}` }],
      },
    ]),
  ),
  components: {
    messages: Object.fromEntries(
      TOPIC_MESSAGES.map(({ message, schema, key, summary }) => [
        message,
        {
          name: message,
          title: message,
          summary,
          contentType: 'application/json',
          headers: { schemaFormat: DRAFT_7, schema: jsonSchema(IntegrationMessageHeaders) },
          payload: { schemaFormat: DRAFT_7, schema: jsonSchema(schema) },
          bindings: {
            kafka: { key: { type: 'string', description: key }, bindingVersion: '0.5.0' },
          },
        },
      ]),
    ),
  },
});

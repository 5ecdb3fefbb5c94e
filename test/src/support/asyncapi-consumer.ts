import type { IncomingMessage } from '@cropcover/runtime';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

// A Kafka consumer written only from the AsyncAPI document a running service serves at /asyncapi.json
// (issue 13): each channel's address, and its message's key, header and payload JSON Schemas compiled
// with Ajv, a validator that knows nothing of the zod contracts behind them. A message it cannot place
// on a channel or that breaks a schema is a problem of the document, or of the publisher.

interface SchemaObject {
  readonly schemaFormat?: string;
  readonly schema: object;
}
interface AsyncApiMessage {
  readonly headers: SchemaObject;
  readonly payload: SchemaObject;
  readonly bindings: { readonly kafka: { readonly key: object } };
}
interface AsyncApiDocument {
  readonly channels: Record<string, { address: string; messages: Record<string, { $ref: string }> }>;
  readonly components: { readonly messages: Record<string, AsyncApiMessage> };
}

interface ChannelValidators {
  readonly key: ValidateFunction;
  readonly headers: ValidateFunction;
  readonly payload: ValidateFunction;
}

export interface AsyncApiConsumer {
  /** What is wrong with one message; empty when the document accounts for it. */
  problemsOf(message: IncomingMessage): string[];
}

const resolve = (document: AsyncApiDocument, ref: string): AsyncApiMessage => {
  const name = /^#\/components\/messages\/(.+)$/.exec(ref)?.[1];
  const message = name === undefined ? undefined : document.components.messages[name];
  if (!message) throw new Error(`unresolvable message reference ${ref}`);
  return message;
};

/** `topicPrefix`: a deployment's KAFKA_TOPIC_PREFIX, put before each channel address. */
export const asyncApiConsumerOf = async (serviceBaseUrl: string, topicPrefix = ''): Promise<AsyncApiConsumer> => {
  const response = await fetch(`${serviceBaseUrl}/asyncapi.json`);
  if (!response.ok) throw new Error(`GET /asyncapi.json answered ${response.status}`);
  const document = (await response.json()) as AsyncApiDocument;
  // Strict: an unknown keyword or format in the document fails here, as it would for any consumer.
  const ajv = new Ajv({ allErrors: true });
  addFormats.default(ajv);
  const byTopic = new Map<string, ChannelValidators>();
  for (const channel of Object.values(document.channels)) {
    const [reference] = Object.values(channel.messages);
    const message = resolve(document, reference!.$ref);
    byTopic.set(`${topicPrefix}${channel.address}`, {
      key: ajv.compile(message.bindings.kafka.key),
      headers: ajv.compile(message.headers.schema),
      payload: ajv.compile(message.payload.schema),
    });
  }
  const failures = (part: string, validate: ValidateFunction, value: unknown): string[] =>
    validate(value) ? [] : (validate.errors ?? []).map((error) => `${part}${error.instancePath} ${error.message}`);
  return {
    problemsOf: (message) => {
      const where = `${message.topic}[${message.partition}]@${message.offset}`;
      const validators = byTopic.get(message.topic);
      if (!validators) return [`${where}: no channel of the document has this address`];
      let payload: unknown;
      try {
        payload = JSON.parse(message.value ?? '');
      } catch {
        return [`${where}: the value is not JSON`];
      }
      return [
        ...failures('key', validators.key, message.key),
        ...failures('headers', validators.headers, message.headers),
        ...failures('payload', validators.payload, payload),
      ].map((problem) => `${where}: ${problem}`);
    },
  };
};

import type { RecordedEvent } from './port';

/** Turns the data of one event type from `fromSchemaVersion` into the shape of `fromSchemaVersion + 1`.
 *  The log is never rewritten: old shapes are upcast every time they are read. */
export interface Upcaster {
  readonly eventType: string;
  readonly fromSchemaVersion: number;
  upcast(data: unknown): unknown;
}

export type Upcast = (event: RecordedEvent) => RecordedEvent;

const keyOf = (eventType: string, schemaVersion: number): string => `${eventType}@${schemaVersion}`;

/** Chains upcasters per event type: an event at version v goes through v→v+1, v+1→v+2, … while a step exists. */
export const createUpcast = (upcasters: readonly Upcaster[] = []): Upcast => {
  const steps = new Map<string, Upcaster>();
  for (const upcaster of upcasters) {
    const key = keyOf(upcaster.eventType, upcaster.fromSchemaVersion);
    // Two steps from the same version would make the resulting shape depend on registration order.
    if (steps.has(key))
      throw new Error(`two upcasters for ${upcaster.eventType} from schema version ${upcaster.fromSchemaVersion}`);
    steps.set(key, upcaster);
  }
  if (steps.size === 0) return (event) => event;
  return (event) => {
    let data = event.data;
    let version = event.metadata.schema_version;
    for (let step = steps.get(keyOf(event.type, version)); step; step = steps.get(keyOf(event.type, version))) {
      data = step.upcast(data);
      version += 1;
    }
    if (version === event.metadata.schema_version) return event;
    return { ...event, data, metadata: { ...event.metadata, schema_version: version } };
  };
};

import { type AllStreamResolvedEvent, type EventData, jsonEvent, type ResolvedEvent } from '@kurrent/kurrentdb-client';
import type { EventMetadata, NewEvent, RecordedEvent } from '../port';

export const toEventData = (event: NewEvent): EventData =>
  jsonEvent({
    id: event.metadata.event_id,
    type: event.type,
    // The client types JSON data as object, array or string; any JSON value serialises the same way.
    data: event.data as Record<string, unknown>,
    metadata: { ...event.metadata },
  });

// multiStreamAppend takes metadata only as string properties; ours (numbers, nulls) travels as one of them.
const METADATA_PROPERTY = 'cropcover.metadata';

/** The form of an event for `multiStreamAppend`, whose metadata must map strings to strings. */
export const toPropertiesEventData = (event: NewEvent): EventData =>
  jsonEvent({
    id: event.metadata.event_id,
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata: { [METADATA_PROPERTY]: JSON.stringify(event.metadata) },
  });

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);

const readMetadata = (metadata: Record<string, unknown>): EventMetadata => {
  const carried = metadata[METADATA_PROPERTY];
  return (typeof carried === 'string' ? JSON.parse(carried) : metadata) as EventMetadata;
};

/** Our events are JSON with our metadata; links, binary and foreign events are not part of the log we read. */
export const toRecordedEvent = (resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined => {
  const event = resolved.event;
  if (!event?.isJson || !isJsonObject(event.metadata)) return undefined;
  if (!event.position) throw new Error('KurrentDB returned an event without its position: the server predates 22.6');
  return {
    streamId: event.streamId,
    revision: Number(event.revision),
    position: { commit: event.position.commit, prepare: event.position.prepare },
    type: event.type,
    data: event.data,
    metadata: readMetadata(event.metadata),
  };
};

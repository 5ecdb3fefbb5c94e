import { canonicalJson, eventLeafHash, GENESIS_PREV } from '@cropcover/verifiable-log';
import { type AllStreamResolvedEvent, type EventData, jsonEvent, type ResolvedEvent } from '@kurrent/kurrentdb-client';
import type { EventMetadata, NewEvent, RecordedEvent } from '../port';
import type { StoredLogEvent } from '../stored-log-event';
import { storedEventText } from '../stored-text';

// Our metadata travels as string properties: `multiStreamAppend` takes nothing else, and a string keeps
// its bytes exactly. `cropcover.metadata` is its RFC 8785 text, the one the leaf hashes (as PostgreSQL
// stores it); `cropcover.prev` the audit chain's link, base64 of the leaf hash of the stream's previous
// revision (SPEC §7 Audit: on KurrentDB, `prev` is in the metadata).
const METADATA_PROPERTY = 'cropcover.metadata';
const PREV_PROPERTY = 'cropcover.prev';

/** The stream's last event as the chain needs it: the next event's revision and `prev`. */
export interface ChainHead {
  readonly nextRevision: number;
  readonly prev: Uint8Array;
}

export const EMPTY_STREAM_HEAD: ChainHead = { nextRevision: 0, prev: GENESIS_PREV };

/** The events of one append, each carrying the leaf hash of the one before it, from the stream's head. */
export const chainedEventData = (streamId: string, head: ChainHead, events: readonly NewEvent[]): EventData[] => {
  let prev = head.prev;
  return events.map((event, i) => {
    const metadata = storedEventText(event.metadata, event.type);
    const carried = { [METADATA_PROPERTY]: metadata, [PREV_PROPERTY]: Buffer.from(prev).toString('base64') };
    prev = eventLeafHash({
      stream: streamId,
      revision: head.nextRevision + i,
      eventId: event.metadata.event_id,
      type: event.type,
      // What a read gives back: KurrentDB returns the data parsed, so its text is the canonical form again.
      data: storedEventText(event.data, event.type),
      metadata,
      prev,
    });
    return jsonEvent({
      id: event.metadata.event_id,
      type: event.type,
      // The client types JSON data as object, array or string; any JSON value serialises the same way.
      data: event.data as Record<string, unknown>,
      metadata: carried,
    });
  });
};

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);

/** Events written before the chain carry their metadata as a plain object (or one property) and no prev. */
const metadataText = (metadata: Record<string, unknown>): string => {
  const carried = metadata[METADATA_PROPERTY];
  return typeof carried === 'string' ? carried : canonicalJson(metadata as never);
};

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

/** The event as stored and hashed, its leaf recomputed as the PostgreSQL adapter computes it at append;
 *  one written before the chain is read with zeros for `prev`, as PostgreSQL reads its own. */
export const toStoredEvent = (resolved: ResolvedEvent | AllStreamResolvedEvent): StoredLogEvent | undefined => {
  const recorded = toRecordedEvent(resolved);
  const metadata = resolved.event?.metadata;
  if (!recorded || !isJsonObject(metadata)) return undefined;
  const carriedPrev = metadata[PREV_PROPERTY];
  const stored = {
    stream: recorded.streamId,
    revision: recorded.revision,
    eventId: recorded.metadata.event_id,
    type: recorded.type,
    data: canonicalJson(recorded.data as never),
    metadata: metadataText(metadata),
    prev: typeof carriedPrev === 'string' ? new Uint8Array(Buffer.from(carriedPrev, 'base64')) : GENESIS_PREV,
  };
  return { ...stored, leafHash: eventLeafHash(stored), position: recorded.position };
};

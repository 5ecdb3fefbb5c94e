import { canonicalJson, eventLeafHash, GENESIS_PREV } from '@cropcover/verifiable-log';
import type { EventData, ResolvedEvent } from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import { testEvent } from '../contract/test-event';
import { chainedEventData, EMPTY_STREAM_HEAD, toRecordedEvent, toStoredEvent } from './event-mapping';

// The KurrentDB adapter's audit chain without a server (the contract suite runs it against one): the
// client sends data and metadata as JSON.stringify of what it is given and parses them on read.

const STREAM = 'policy-kurrent';
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** What a read returns for an event the client appended at `revision`. */
const overTheWire = (event: EventData, revision: number): ResolvedEvent =>
  ({
    event: {
      streamId: STREAM,
      id: event.id,
      revision: BigInt(revision),
      type: event.type,
      isJson: true,
      data: JSON.parse(JSON.stringify(event.data)),
      metadata: JSON.parse(JSON.stringify(event.metadata)),
      created: new Date(),
      position: { commit: BigInt(revision * 10), prepare: BigInt(revision * 10) },
    },
  }) as unknown as ResolvedEvent;

describe('the KurrentDB event mapping', () => {
  it('carries prev in metadata and hashes the leaf the PostgreSQL adapter hashes for the same event', () => {
    const first = [testEvent('PolicyIssued', { '10': 'ten', '2': 'two', amount: '12.50', é: [1, 2.5, null] })];
    const next = [testEvent('TriggerEvaluated', { z: 1, a: 'Dürre "trocken"' }), testEvent('TriggerBreached', {})];
    const written = chainedEventData(STREAM, EMPTY_STREAM_HEAD, first);
    const head = toStoredEvent(overTheWire(written[0]!, 0))!;
    written.push(...chainedEventData(STREAM, { nextRevision: 1, prev: head.leafHash }, next));

    let prev: Uint8Array = GENESIS_PREV;
    for (const [revision, event] of [...first, ...next].entries()) {
      const resolved = overTheWire(written[revision]!, revision);
      const stored = toStoredEvent(resolved)!;
      // As PostgreSQL stores it: the RFC 8785 texts of data and metadata, prev beside them.
      const asPostgres = {
        stream: STREAM,
        revision,
        eventId: event.metadata.event_id,
        type: event.type,
        data: canonicalJson(event.data as never),
        metadata: canonicalJson(event.metadata as never),
        prev,
      };
      expect({ ...stored, prev: hex(stored.prev), leafHash: hex(stored.leafHash) }).toMatchObject({
        ...asPostgres,
        prev: hex(prev),
        leafHash: hex(eventLeafHash(asPostgres)),
      });
      expect(toRecordedEvent(resolved)).toMatchObject({ data: event.data, metadata: event.metadata });
      prev = stored.leafHash;
    }
  });

  it('reads an event written before the chain with zeros for prev', () => {
    const event = testEvent('PolicyIssued', { b: 1, a: 2 });
    const legacy = { id: event.metadata.event_id, type: event.type, data: event.data, metadata: event.metadata };
    const stored = toStoredEvent(overTheWire(legacy as unknown as EventData, 0))!;
    expect([stored.data, stored.metadata, hex(stored.prev)]).toEqual([
      '{"a":2,"b":1}',
      canonicalJson(event.metadata as never),
      hex(GENESIS_PREV),
    ]);
    expect(toRecordedEvent(overTheWire(legacy as unknown as EventData, 0))?.metadata).toEqual(event.metadata);
  });
});

import { randomBytes } from 'node:crypto';
import { endPool } from '@cropcover/runtime';
import {
  createTestDatabase,
  recordSpansInMemory,
  type SpansInMemory,
  type TestDatabase,
} from '@cropcover/runtime/testing';
import { SpanStatusCode } from '@opentelemetry/api';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEvent } from './contract/test-event';
import { type EventStore, WrongExpectedRevisionError } from './port';
import { createPostgresEventStore } from './postgres/postgres-event-store';
import { migrateEventStore } from './postgres/schema';
import { withTracedAppends } from './traced-appends';

describe('traced appends', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: EventStore;
  let spans: SpansInMemory;

  beforeAll(async () => {
    spans = await recordSpansInMemory();
    database = await createTestDatabase('eventstore_traced');
    pool = new pg.Pool({ connectionString: database.url, max: 4 });
    await migrateEventStore(pool);
    store = withTracedAppends(createPostgresEventStore({ pool }));
  });

  afterAll(async () => {
    await store?.close();
    if (pool) await endPool(pool);
    await database?.drop();
    await spans?.stop();
  });

  const appendSpanOf = (streamId: string) =>
    spans.finished().find((span) => {
      const streams = span.attributes['cropcover.stream_id'];
      return span.name === 'append' && (Array.isArray(streams) ? streams.includes(streamId) : streams === streamId);
    });

  it('makes a multi-stream append one span whose trace context every event carries', async () => {
    const prefix = `traced${randomBytes(4).toString('hex')}-`;
    const [a, b] = [`${prefix}a`, `${prefix}b`];
    await store.appendToStreams([
      { streamId: a, events: [testEvent('FarmRegistered', {}), testEvent('FieldAdded', {})], expected: 'no_stream' },
      { streamId: b, events: [testEvent('ShareableIdClaimed', {})], expected: 'no_stream' },
    ]);
    const span = appendSpanOf(a);
    expect(span?.attributes).toMatchObject({ 'cropcover.stream_id': [a, b], 'cropcover.event_count': 3 });
    const stored = [...(await store.readStream(a)), ...(await store.readStream(b))];
    expect(stored.map((event) => event.metadata.traceparent?.split('-')[1])).toEqual([
      span?.spanContext().traceId,
      span?.spanContext().traceId,
      span?.spanContext().traceId,
    ]);
  });

  it('marks the span of a refused multi-stream append as an error', async () => {
    const stream = `refused${randomBytes(4).toString('hex')}`;
    await expect(
      store.appendToStreams([{ streamId: stream, events: [testEvent('FarmRegistered', {})], expected: 0 }]),
    ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(appendSpanOf(stream)?.status.code).toBe(SpanStatusCode.ERROR);
  });
});

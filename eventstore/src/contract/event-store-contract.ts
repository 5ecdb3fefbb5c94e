import { randomBytes } from 'node:crypto';
import { canonicalJson, eventLeafHash, GENESIS_PREV } from '@cropcover/verifiable-log';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type AllStreamStart,
  type EventStore,
  type ExpectedRevision,
  type GlobalPosition,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../port';
import { comparePositions, isAtOrAfter } from '../position';
import type { StoredLogEvent } from '../stored-log-event';
import type { Upcaster } from '../upcasting';
import { collectEvents } from './event-collector';
import { testEvent } from './test-event';

/** One log both adapters are tested against; every store it opens reads and writes that same log. */
export interface ContractBackend {
  openStore(upcasters?: readonly Upcaster[]): Promise<EventStore>;
  /** A stream's events as the adapter stored and hashed them (SPEC §7 Audit). */
  readStored(streamId: string): Promise<StoredLogEvent[]>;
  dispose(): Promise<void>;
}

const DELIVERY_TIMEOUT = { timeout: 20_000, interval: 20 };
// Longer than a PostgreSQL subscriber's idle poll, so "nothing arrived" is not just "not yet polled".
const QUIET_MS = 600;

const uniquePrefix = (label: string): string => `${label}${randomBytes(4).toString('hex')}-`;

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** The stream's audit chain: revisions 0…n, each `prev` the previous revision's leaf (zeros at 0), each
 *  leaf recomputed from the stored texts, and those texts the RFC 8785 form of what was appended. */
const expectChained = async (backend: ContractBackend, stream: string, appended: readonly NewEvent[]) => {
  const stored = await backend.readStored(stream);
  expect(stored.map((event) => event.revision)).toEqual([...appended.keys()]);
  let prev: Uint8Array = GENESIS_PREV;
  for (const [i, event] of stored.entries()) {
    expect({ revision: i, prev: hex(event.prev), leaf: hex(eventLeafHash(event)) }).toEqual({
      revision: i,
      prev: hex(prev),
      leaf: hex(event.leafHash),
    });
    expect([event.eventId, event.type, event.data, event.metadata]).toEqual([
      appended[i]!.metadata.event_id,
      appended[i]!.type,
      canonicalJson(appended[i]!.data as never),
      canonicalJson(appended[i]!.metadata as never),
    ]);
    prev = event.leafHash;
  }
};

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const idsOf = (events: readonly RecordedEvent[], prefix: string): string[] =>
  events.filter((event) => event.streamId.startsWith(prefix)).map((event) => event.metadata.event_id);

const expectStrictlyIncreasing = (positions: readonly GlobalPosition[]): void => {
  for (let i = 1; i < positions.length; i++) {
    const [previous, current] = [positions[i - 1]!, positions[i]!];
    if (comparePositions(previous, current) >= 0)
      expect.fail(
        `position ${i} (${current.commit}.${current.prepare}) is not after ${previous.commit}.${previous.prepare}`,
      );
  }
};

const expectConflict = async (
  attempt: Promise<unknown>,
  streamId: string,
  expected: ExpectedRevision,
  actual: number | 'no_stream',
): Promise<void> => {
  const error = await attempt.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  expect(error).toMatchObject({ streamId, expected, actual });
};

/** Waits until $all shows the log up to `position`. PostgreSQL shows an append only once every older
 *  transaction on the server ended, and other test files run theirs on the same server. */
const untilReadable = async (store: EventStore, position: GlobalPosition): Promise<void> => {
  await vi.waitFor(async () => expect(isAtOrAfter(await store.headPosition(), position)).toBe(true), DELIVERY_TIMEOUT);
};

/** Pages through $all after `after` with small pages, as a rebuilding projection would. */
const readAllPaged = async (
  store: EventStore,
  after: GlobalPosition | AllStreamStart,
  pageSize: number,
): Promise<RecordedEvent[]> => {
  const events: RecordedEvent[] = [];
  for (let position = after; ; ) {
    const page = await store.readAll(position, pageSize);
    expect(page.length).toBeLessThanOrEqual(pageSize);
    const last = page.at(-1);
    if (!last) return events;
    events.push(...page);
    position = last.position;
  }
};

export const describeEventStoreContract = (name: string, setup: () => Promise<ContractBackend>): void => {
  describe(`event store contract: ${name}`, () => {
    let backend: ContractBackend;
    let store: EventStore;

    beforeAll(async () => {
      backend = await setup();
      store = await backend.openStore();
    });

    afterAll(async () => {
      await store?.close();
      await backend?.dispose();
    });

    it('reads back an appended stream with its data and metadata intact', async () => {
      const stream = `${uniquePrefix('farm')}1`;
      const events = [
        testEvent('FarmRegistered', { name: 'North', hectares: 12.5, tags: ['maize', 'soy'], owner: null }),
        testEvent('FieldAdded', { fieldId: 'f-1', polygon: [[1.5, 2.25]] }),
      ];
      const result = await store.append(stream, events, 'no_stream');
      expect(result.nextExpectedRevision).toBe(1);

      const read = await store.readStream(stream);
      expect(
        read.map(({ streamId, revision, type, data, metadata }) => ({ streamId, revision, type, data, metadata })),
      ).toEqual([
        { streamId: stream, revision: 0, ...events[0] },
        { streamId: stream, revision: 1, ...events[1] },
      ]);
      expect(read[1]?.position).toEqual(result.position);
      expectStrictlyIncreasing(read.map((event) => event.position));

      expect((await store.readStream(stream, { fromRevision: 1 })).map((event) => event.type)).toEqual(['FieldAdded']);
      expect((await store.readStream(stream, { limit: 1 })).map((event) => event.type)).toEqual(['FarmRegistered']);
      expect(await store.readStream(`${stream}-missing`)).toEqual([]);
    });

    it('enforces no_stream, an exact revision and any, and reports the actual revision on a mismatch', async () => {
      const stream = `${uniquePrefix('policy')}1`;
      expect((await store.append(stream, [testEvent('PolicyIssued', {})], 'no_stream')).nextExpectedRevision).toBe(0);
      await expectConflict(store.append(stream, [testEvent('PolicyIssued', {})], 'no_stream'), stream, 'no_stream', 0);
      expect((await store.append(stream, [testEvent('TriggerEvaluated', {})], 0)).nextExpectedRevision).toBe(1);
      await expectConflict(store.append(stream, [testEvent('TriggerEvaluated', {})], 0), stream, 0, 1);
      await expectConflict(store.append(stream, [testEvent('TriggerEvaluated', {})], 5), stream, 5, 1);
      const twoMore = [testEvent('TriggerBreached', {}), testEvent('PayoutApproved', {})];
      expect((await store.append(stream, twoMore, 'any')).nextExpectedRevision).toBe(3);

      const missing = `${stream}-missing`;
      await expectConflict(store.append(missing, [testEvent('PolicyIssued', {})], 0), missing, 0, 'no_stream');
      expect((await store.append(`${stream}-new`, [testEvent('PolicyIssued', {})], 'any')).nextExpectedRevision).toBe(
        0,
      );

      // Refused appends wrote nothing.
      const types = (await store.readStream(stream)).map((event) => event.type);
      expect(types).toEqual(['PolicyIssued', 'TriggerEvaluated', 'TriggerBreached', 'PayoutApproved']);
      expect(await store.readStream(missing)).toEqual([]);
    });

    it('lets exactly one of two appends racing for the same revision win', async () => {
      const prefix = uniquePrefix('race');
      for (let round = 0; round < 20; round++) {
        const stream = `${prefix}${round}`;
        // Even rounds race to create the stream, odd rounds race to extend it.
        const expected: ExpectedRevision = round % 2 === 0 ? 'no_stream' : 0;
        if (expected === 0) await store.append(stream, [testEvent('FarmRegistered', {})], 'no_stream');
        const contenders = [testEvent('FieldAdded', { by: 'a' }), testEvent('FieldAdded', { by: 'b' })];
        const outcomes = await Promise.allSettled(contenders.map((event) => store.append(stream, [event], expected)));

        const winners = outcomes.flatMap((outcome, i) => (outcome.status === 'fulfilled' ? [contenders[i]!] : []));
        const losers = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
        expect(winners).toHaveLength(1);
        expect(losers).toHaveLength(1);
        expect(losers[0]).toBeInstanceOf(WrongExpectedRevisionError);
        expect(losers[0]).toMatchObject({ streamId: stream, expected, actual: expected === 'no_stream' ? 0 : 1 });
        const last = (await store.readStream(stream)).at(-1);
        expect(last?.metadata.event_id).toBe(winners[0]?.metadata.event_id);
      }
    });

    it('appends to several streams at once, all or none, and names the stream whose revision is wrong', async () => {
      const prefix = uniquePrefix('multi');
      const [shareable, farm] = [`${prefix}shareable`, `${prefix}farm`];
      await store.append(shareable, [testEvent('ShareableIdReserved', { n: 1 })], 'no_stream');
      const claim = testEvent('ShareableIdClaimed', { farm });
      const registered = [testEvent('FarmRegistered', {}), testEvent('FieldAdded', {})];
      const results = await store.appendToStreams([
        { streamId: shareable, events: [claim], expected: 0 },
        { streamId: farm, events: registered, expected: 'no_stream' },
      ]);
      expect(results.map((result) => result.nextExpectedRevision)).toEqual([1, 1]);
      expect((await store.readStream(shareable)).at(-1)?.metadata.event_id).toBe(claim.metadata.event_id);
      expect((await store.readStream(farm)).map((event) => event.metadata.event_id)).toEqual(
        registered.map((event) => event.metadata.event_id),
      );

      // The second stream's expectation fails: neither stream is written, and the error names the second.
      const other = `${prefix}other`;
      await expectConflict(
        store.appendToStreams([
          { streamId: other, events: [testEvent('FarmRegistered', {})], expected: 'no_stream' },
          { streamId: farm, events: [testEvent('FieldAdded', {})], expected: 0 },
        ]),
        farm,
        0,
        1,
      );
      // The first stream's expectation fails, the second's holds.
      await expectConflict(
        store.appendToStreams([
          { streamId: shareable, events: [testEvent('ShareableIdClaimed', {})], expected: 'no_stream' },
          { streamId: other, events: [testEvent('FarmRegistered', {})], expected: 'any' },
        ]),
        shareable,
        'no_stream',
        1,
      );
      expect(await store.readStream(other)).toEqual([]);
      expect(await store.readStream(farm)).toHaveLength(2);
      expect(await store.readStream(shareable)).toHaveLength(2);
    });

    it('gives a multi-stream append positions in the order of its streams, which a subscriber sees together', async () => {
      const prefix = uniquePrefix('multipos');
      const head = await store.headPosition();
      const collector = collectEvents(store, head);
      try {
        const appends = [
          { streamId: `${prefix}a`, events: [testEvent('FarmRegistered', {}), testEvent('FieldAdded', {})] },
          { streamId: `${prefix}b`, events: [testEvent('ShareableIdClaimed', {})] },
          { streamId: `${prefix}c`, events: [testEvent('FarmerRegistered', {})] },
        ];
        const expectedIds = appends.flatMap(({ events }) => events.map((event) => event.metadata.event_id));
        const results = await store.appendToStreams(
          appends.map((append) => ({ ...append, expected: 'no_stream' as const })),
        );
        expectStrictlyIncreasing(results.map((result) => result.position));
        for (const [i, { streamId }] of appends.entries())
          expect((await store.readStream(streamId)).at(-1)?.position).toEqual(results[i]!.position);

        await vi.waitFor(() => expect(collector.idsOf(prefix)).toEqual(expectedIds), DELIVERY_TIMEOUT);
        // Nothing else comes between them: they are one write.
        const first = collector.received.findIndex((event) => event.streamId.startsWith(prefix));
        expect(collector.received.slice(first, first + expectedIds.length).map((e) => e.metadata.event_id)).toEqual(
          expectedIds,
        );
        expectStrictlyIncreasing(collector.received.map((event) => event.position));
        await delay(QUIET_MS);
        expect(collector.idsOf(prefix)).toEqual(expectedIds);
      } finally {
        await collector.stop();
      }
    });

    it('answers each of many concurrent appends on its own expected revision', async () => {
      const prefix = uniquePrefix('each');
      const streams = Array.from({ length: 12 }, (_, i) => `${prefix}${i}`);
      await Promise.all(streams.map((stream) => store.append(stream, [testEvent('PolicyIssued', {})], 'no_stream')));
      // Even streams are appended at their true revision 0, odd ones at a stale 'no_stream', all at once.
      const outcomes = await Promise.allSettled(
        streams.map((stream, i) =>
          store.append(stream, [testEvent('TriggerEvaluated', { i })], i % 2 ? 'no_stream' : 0),
        ),
      );
      for (const [i, outcome] of outcomes.entries()) {
        if (i % 2 === 0) {
          expect(outcome.status).toBe('fulfilled');
          expect(outcome.status === 'fulfilled' && outcome.value.nextExpectedRevision).toBe(1);
        } else {
          expect(outcome.status === 'rejected' && outcome.reason).toMatchObject({
            name: 'WrongExpectedRevisionError',
            streamId: streams[i],
            expected: 'no_stream',
            actual: 0,
          });
        }
      }
      const lengths = await Promise.all(streams.map(async (stream) => (await store.readStream(stream)).length));
      expect(lengths).toEqual(streams.map((_, i) => (i % 2 ? 1 : 2)));
    });

    it("chains each event to its stream's previous one, over single, following and multi-stream appends", async () => {
      const stream = `${uniquePrefix('policy')}chain`;
      const other = `${uniquePrefix('programme')}chain`;
      const first = [
        testEvent('PolicyIssued', { z: 1, a: 'Dürre "trocken"', amount: '12.50', nested: { y: [1, 2.5], b: null } }),
        testEvent('TriggerEvaluated', { '10': 'ten', '2': 'two', é: true }),
      ];
      const next = [testEvent('TriggerBreached', { index: 0.1 })];
      const together = [testEvent('PayoutApproved', { amount_minor: 500 }), testEvent('PayoutSettled', {})];
      const alongside = [testEvent('ExposureReserved', { policy_id: 'p' })];
      await store.append(stream, first, 'no_stream');
      await store.append(stream, next, 1);
      await store.appendToStreams([
        { streamId: stream, events: together, expected: 2 },
        { streamId: other, events: alongside, expected: 'no_stream' },
      ]);
      await expectChained(backend, stream, [...first, ...next, ...together]);
      await expectChained(backend, other, alongside);
    });

    it('chains appends that race on one stream with any', async () => {
      const stream = `${uniquePrefix('policy')}race`;
      const events = Array.from({ length: 16 }, (_, i) => testEvent('TriggerEvaluated', { i }));
      await Promise.all(events.map((event) => store.append(stream, [event], 'any')));
      const order = (await store.readStream(stream)).map((event) => event.metadata.event_id);
      await expectChained(
        backend,
        stream,
        order.map((id) => events.find((event) => event.metadata.event_id === id)!),
      );
    });

    it('reads $all in commit order and pages from any position', async () => {
      const prefix = uniquePrefix('all');
      const head = await store.headPosition();
      const appended: string[] = [];
      let lastPosition: GlobalPosition | undefined;
      for (let i = 0; i < 9; i++) {
        const events =
          i === 4 ? [testEvent('FieldAdded', { i }), testEvent('FieldAdded', { i })] : [testEvent('FieldAdded', { i })];
        const result = await store.append(`${prefix}${i % 3}`, events, 'any');
        appended.push(...events.map((event) => event.metadata.event_id));
        lastPosition = result.position;
      }
      await untilReadable(store, lastPosition!);

      const all = await store.readAll(head, 1000);
      expect(idsOf(all, prefix)).toEqual(appended);
      expectStrictlyIncreasing(all.map((event) => event.position));
      expect(all.find((event) => event.metadata.event_id === appended.at(-1))?.position).toEqual(lastPosition);

      const paged = await readAllPaged(store, head, 2);
      expect(idsOf(paged, prefix)).toEqual(appended);

      const ours = all.filter((event) => event.streamId.startsWith(prefix));
      const fromMiddle = await store.readAll(ours[3]!.position, 1000);
      expect(idsOf(fromMiddle, prefix)).toEqual(appended.slice(4));

      const newest = await store.headPosition();
      expect(newest).not.toBe('start');
      expect(comparePositions(newest as GlobalPosition, lastPosition!)).toBeGreaterThanOrEqual(0);
    });

    it('tells a position it handed out from one beyond anything it handed out', async () => {
      const { position } = await store.append(uniquePrefix('issued'), [testEvent('FarmRegistered', {})], 'no_stream');
      expect(await store.mayHaveIssued(position)).toBe(true);
      const never = 18_446_744_073_709_551_615n;
      expect(await store.mayHaveIssued({ commit: never, prepare: never })).toBe(false);
      expect(await store.mayHaveIssued({ commit: position.commit, prepare: never })).toBe(false);
    });

    it('delivers 8 writers × 500 appends to a subscriber exactly once, in the order $all reads them', async () => {
      const prefix = uniquePrefix('load');
      const head = await store.headPosition();
      const collector = collectEvents(store, head, { batchSize: 200 });
      const appendedIds = new Set<string>();
      const positionsById = new Map<string, GlobalPosition>();
      try {
        await Promise.all(
          Array.from({ length: 8 }, async (_, writer) => {
            const revisions = new Map<string, number>();
            for (let i = 0; i < 500; i++) {
              const stream = `${prefix}w${writer}-s${i % 5}`;
              const event = testEvent('IndexReadingRecorded', { writer, i, value: Math.sin(i) });
              const result = await store.append(stream, [event], revisions.get(stream) ?? 'no_stream');
              revisions.set(stream, result.nextExpectedRevision);
              appendedIds.add(event.metadata.event_id);
              positionsById.set(event.metadata.event_id, result.position);
            }
          }),
        );
        await vi.waitFor(() => expect(collector.idsOf(prefix).length).toBeGreaterThanOrEqual(4000), DELIVERY_TIMEOUT);
        await delay(QUIET_MS);
      } finally {
        await collector.stop();
      }

      const delivered = collector.idsOf(prefix);
      expect(delivered).toHaveLength(4000);
      expect(new Set(delivered)).toEqual(appendedIds);
      expectStrictlyIncreasing(collector.received.map((event) => event.position));
      for (const event of collector.received.filter((e) => e.streamId.startsWith(prefix)))
        expect(event.position).toEqual(positionsById.get(event.metadata.event_id));
      const revisionsByStream = new Map<string, number[]>();
      for (const event of collector.received.filter((e) => e.streamId.startsWith(prefix)))
        revisionsByStream.set(event.streamId, [...(revisionsByStream.get(event.streamId) ?? []), event.revision]);
      for (const revisions of revisionsByStream.values()) expect(revisions).toEqual(revisions.map((_, i) => i));

      const reread = await readAllPaged(store, 'start', 1000);
      expect(idsOf(reread, prefix)).toEqual(delivered);
    });

    it('starts a subscription after a mid position and then follows live appends', async () => {
      const prefix = uniquePrefix('mid');
      const stream = `${prefix}1`;
      const first = Array.from({ length: 10 }, (_, i) => testEvent('FieldAdded', { i }));
      await store.append(stream, first, 'no_stream');
      const stored = await store.readStream(stream);
      const middle = stored[4]!.position;

      const collector = collectEvents(store, middle);
      try {
        const expected = first.slice(5).map((event) => event.metadata.event_id);
        await vi.waitFor(() => expect(collector.idsOf(prefix)).toEqual(expected), DELIVERY_TIMEOUT);

        const live = [testEvent('FieldRemoved', {}), testEvent('FieldAdded', {})];
        await store.append(stream, live, 9);
        expected.push(...live.map((event) => event.metadata.event_id));
        await vi.waitFor(() => expect(collector.idsOf(prefix)).toEqual(expected), DELIVERY_TIMEOUT);
        await delay(QUIET_MS);
        expect(collector.idsOf(prefix)).toEqual(expected);
        for (const event of collector.received) expect(comparePositions(event.position, middle)).toBeGreaterThan(0);
      } finally {
        await collector.stop();
      }
    });

    it('hands a failed batch to the handler again after reporting the error', async () => {
      const prefix = uniquePrefix('retry');
      const head = await store.headPosition();
      const handled: string[][] = [];
      const errors: unknown[] = [];
      let failuresLeft = 2;
      const subscription = store.subscribeToAll(
        head,
        async (batch) => {
          handled.push(idsOf(batch, prefix));
          if (failuresLeft-- > 0) throw new Error('projection database unavailable');
        },
        { onError: (error) => errors.push(error) },
      );
      try {
        const event = testEvent('FarmRegistered', {});
        await store.append(`${prefix}1`, [event], 'no_stream');
        await vi.waitFor(() => expect(handled.length).toBeGreaterThanOrEqual(3), DELIVERY_TIMEOUT);
        expect(handled.slice(0, 3)).toEqual([
          [event.metadata.event_id],
          [event.metadata.event_id],
          [event.metadata.event_id],
        ]);
        expect(errors.map((error) => (error as Error).message)).toEqual([
          'projection database unavailable',
          'projection database unavailable',
        ]);
      } finally {
        await subscription.stop();
      }
    });

    it('stop() waits for the batch in flight and ends delivery', async () => {
      const prefix = uniquePrefix('stop');
      const head = await store.headPosition();
      let releaseHandler = (): void => undefined;
      const handlerReleased = new Promise<void>((resolve) => {
        releaseHandler = resolve;
      });
      const calls: string[][] = [];
      let handlerFinished = false;
      const subscription = store.subscribeToAll(head, async (batch) => {
        calls.push(idsOf(batch, prefix));
        await handlerReleased;
        handlerFinished = true;
      });

      await store.append(`${prefix}1`, [testEvent('FarmRegistered', {})], 'no_stream');
      await vi.waitFor(() => expect(calls.length).toBe(1), DELIVERY_TIMEOUT);
      let stopped = false;
      const stopping = subscription.stop().then(() => {
        stopped = true;
      });
      await delay(200);
      expect(stopped).toBe(false);

      releaseHandler();
      await stopping;
      expect(handlerFinished).toBe(true);

      await store.append(`${prefix}1`, [testEvent('FieldAdded', {})], 0);
      await delay(QUIET_MS);
      expect(calls).toHaveLength(1);
    });

    it('upcasts old event shapes on every read path without rewriting the log', async () => {
      // v1 stored the area in acres; v2 stores hectares.
      const acresToHectares: Upcaster = {
        eventType: 'ContractFieldMeasured',
        fromSchemaVersion: 1,
        upcast: (data) => {
          const { acres, ...rest } = data as { acres: number };
          return { ...rest, hectares: Math.round(acres * 40.4686) / 100 };
        },
      };
      const upcasting = await backend.openStore([acresToHectares]);
      const prefix = uniquePrefix('upcast');
      const stream = `${prefix}1`;
      const head = await store.headPosition();
      const collector = collectEvents(upcasting, head);
      try {
        const old = testEvent('ContractFieldMeasured', { fieldId: 'f-1', acres: 10 }, 1);
        const current = testEvent('ContractFieldMeasured', { fieldId: 'f-2', hectares: 3 }, 2);
        const appended = await store.append(stream, [old, current], 'no_stream');
        await untilReadable(store, appended.position);

        const expected = [
          { data: { fieldId: 'f-1', hectares: 4.05 }, metadata: { ...old.metadata, schema_version: 2 } },
          { data: { fieldId: 'f-2', hectares: 3 }, metadata: current.metadata },
        ];
        const shapes = (events: readonly RecordedEvent[]) =>
          events.filter((event) => event.streamId === stream).map(({ data, metadata }) => ({ data, metadata }));
        expect(shapes(await upcasting.readStream(stream))).toEqual(expected);
        expect(shapes(await upcasting.readAll(head, 1000))).toEqual(expected);
        await vi.waitFor(() => expect(shapes(collector.received)).toEqual(expected), DELIVERY_TIMEOUT);
        expect((await store.readStream(stream)).map((event) => event.data)).toEqual([old.data, current.data]);
      } finally {
        await collector.stop();
        await upcasting.close();
      }
    });
  });
};

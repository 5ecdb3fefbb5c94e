import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventStore, RecordedEvent } from '../port';
import type { Upcaster } from '../upcasting';
import { type ContractBackend, type ContractSubject, uniquePrefix } from './contract-subject';
import { collectEvents } from './event-collector';
import { DELIVERY_TIMEOUT, untilReadable } from './log-checks';
import { testEvent } from './test-event';

// Upcasting: old event shapes read in the current one on every read path, the log left as written.

export const describeUpcasting = (subject: ContractSubject): void => {
  describe('upcasting', () => {
    let store: EventStore;
    let backend: ContractBackend;
    beforeAll(() => {
      store = subject.store();
      backend = subject.backend();
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
